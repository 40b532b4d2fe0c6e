//! From token vectors to one unit-length sentence vector, as sentence-transformers' Pooling and
//! Normalize modules do. Plain loops over the encoder's output: the work is a few hundred
//! thousand additions per batch, far below the encoder's, and one implementation serves both
//! runtimes.

use crate::model_dir::Pooling;

/// Pools `hidden` (`lengths.len() × width × dim`, row-major; the first `lengths[i]` positions of
/// row `i` are tokens, the rest padding) and L2-normalises each result (norm floored at 1e-12 as
/// torch's `F.normalize`).
pub(crate) fn pool_normalised(
    hidden: &[f32],
    lengths: &[usize],
    width: usize,
    dim: usize,
    pooling: Pooling,
) -> Vec<Vec<f32>> {
    debug_assert_eq!(hidden.len(), lengths.len() * width * dim);
    lengths
        .iter()
        .enumerate()
        .map(|(row, &len)| {
            let tokens = &hidden[row * width * dim..][..len.clamp(1, width) * dim];
            let mut v = pool(tokens, dim, pooling);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
            v.iter_mut().for_each(|x| *x /= norm);
            v
        })
        .collect()
}

/// Pools the token vectors of one text (`tokens.len() / dim` of them, at least one).
fn pool(tokens: &[f32], dim: usize, pooling: Pooling) -> Vec<f32> {
    let count = tokens.len() / dim;
    match pooling {
        Pooling::Cls => tokens[..dim].to_vec(),
        Pooling::Max => tokens.chunks_exact(dim).fold(vec![f32::NEG_INFINITY; dim], |mut acc, t| {
            acc.iter_mut().zip(t).for_each(|(a, &x)| *a = a.max(x));
            acc
        }),
        Pooling::Mean | Pooling::MeanSqrtLen => {
            let mut sum = vec![0f32; dim];
            for t in tokens.chunks_exact(dim) {
                sum.iter_mut().zip(t).for_each(|(a, &x)| *a += x);
            }
            let divisor = if pooling == Pooling::Mean { count as f32 } else { (count as f32).sqrt() };
            sum.iter_mut().for_each(|x| *x /= divisor);
            sum
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooling_ignores_padding_and_normalises() {
        // Two rows of width 3, dim 2; the second has one padding position holding junk.
        let hidden = [1f32, 0., 3., 0., 2., 0., 0., 2., 0., 4., 100., 100.];
        let lengths = [3, 2];
        assert_eq!(pool_normalised(&hidden, &lengths, 3, 2, Pooling::Mean), vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        assert_eq!(pool(&hidden[6..10], 2, Pooling::Mean), vec![0.0, 3.0]);
        assert_eq!(pool(&hidden[..6], 2, Pooling::Max), vec![3.0, 0.0]);
        assert_eq!(pool(&hidden[6..10], 2, Pooling::Cls), vec![0.0, 2.0]);
        assert_eq!(pool(&[3., 4., 3., 4.], 2, Pooling::MeanSqrtLen), vec![6.0 / 2f32.sqrt(), 8.0 / 2f32.sqrt()]);
        assert_eq!(pool_normalised(&[3., 4.], &[1], 1, 2, Pooling::Cls), vec![vec![0.6, 0.8]]);
        // A zero vector stays zero instead of becoming NaN.
        assert_eq!(pool_normalised(&[0., 0.], &[1], 1, 2, Pooling::Mean), vec![vec![0.0, 0.0]]);
    }
}
