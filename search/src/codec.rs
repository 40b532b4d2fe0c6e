//! The byte encoding of a saved index: little-endian numbers, length-prefixed arrays and strings,
//! over any `Write` or `Read` (the file, its checksum and where it lives are the caller's).
//!
//! Arrays are converted a block at a time, so a project's 77 million vector floats cost a copy,
//! not a call per value. A decoder knows how many bytes its input still holds and refuses a
//! length that cannot fit before allocating for it: a damaged length fails with
//! [`DecodeError::Truncated`] instead of asking for gigabytes.

use std::io::{self, Read, Write};

/// Why saved bytes were not turned back into an index. The caller drops them and builds the
/// index the ordinary way; none of these is ever the client's error.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("reading the saved index: {0}")]
    Io(#[from] io::Error),
    #[error("the saved index ends early")]
    Truncated,
    #[error("the saved index is inconsistent: {0}")]
    Corrupt(&'static str),
    #[error("the saved vector graph does not load: {0}")]
    Graph(String),
}

/// Bytes converted per block when writing or reading an array.
const BLOCK: usize = 64 * 1024;

/// Writes values; every method is one field of the format.
pub struct Encoder<W: Write> {
    out: W,
    block: Vec<u8>,
    /// Bytes written so far: where the next field starts (a file's table of sections).
    written: u64,
}

/// Reads values written by [`Encoder`], never past `remaining` bytes.
pub struct Decoder<R: Read> {
    input: R,
    remaining: u64,
    block: Vec<u8>,
}

/// `put_*`/`get_*` of a fixed-size number and of a length-prefixed array of it.
macro_rules! numbers {
    ($t:ty, $size:expr, $put:ident, $get:ident, $put_all:ident, $get_all:ident) => {
        impl<W: Write> Encoder<W> {
            pub fn $put(&mut self, value: $t) -> io::Result<()> {
                self.write(&value.to_le_bytes())
            }

            pub fn $put_all(&mut self, values: &[$t]) -> io::Result<()> {
                self.put_len(values.len())?;
                for part in values.chunks(BLOCK / $size) {
                    self.block.clear();
                    self.block.extend(part.iter().flat_map(|v| v.to_le_bytes()));
                    self.out.write_all(&self.block)?;
                    self.written += self.block.len() as u64;
                }
                Ok(())
            }
        }

        impl<R: Read> Decoder<R> {
            pub fn $get(&mut self) -> Result<$t, DecodeError> {
                let mut bytes = [0u8; $size];
                self.read_exact(&mut bytes)?;
                Ok(<$t>::from_le_bytes(bytes))
            }

            pub fn $get_all(&mut self) -> Result<Vec<$t>, DecodeError> {
                let count = self.get_len($size)?;
                let mut values = Vec::with_capacity(count);
                let mut block = std::mem::take(&mut self.block);
                while values.len() < count {
                    let take = (count - values.len()).min(BLOCK / $size);
                    block.resize(take * $size, 0);
                    self.read_exact(&mut block)?;
                    values.extend(block.chunks_exact($size).map(|b| <$t>::from_le_bytes(b.try_into().expect("sized"))));
                }
                self.block = block;
                Ok(values)
            }
        }
    };
}

numbers!(u16, 2, put_u16, get_u16, put_u16s, get_u16s);
numbers!(u32, 4, put_u32, get_u32, put_u32s, get_u32s);
numbers!(u64, 8, put_u64, get_u64, put_u64s, get_u64s);
numbers!(i64, 8, put_i64, get_i64, put_i64s, get_i64s);
numbers!(f32, 4, put_f32, get_f32, put_f32s, get_f32s);

impl<W: Write> Encoder<W> {
    pub fn new(out: W) -> Self {
        Self { out, block: Vec::with_capacity(BLOCK), written: 0 }
    }

    /// Bytes written so far.
    pub fn position(&self) -> u64 {
        self.written
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    /// The writer, for what follows the encoded fields (a checksum).
    pub fn into_inner(self) -> W {
        self.out
    }

    pub fn put_u8(&mut self, value: u8) -> io::Result<()> {
        self.write(&[value])
    }

    pub fn put_bool(&mut self, value: bool) -> io::Result<()> {
        self.put_u8(u8::from(value))
    }

    /// A length or count (as u64, so the format is the same on every pointer width).
    pub fn put_len(&mut self, len: usize) -> io::Result<()> {
        self.put_u64(len as u64)
    }

    pub fn put_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.put_len(bytes.len())?;
        self.write(bytes)
    }

    pub fn put_str(&mut self, text: &str) -> io::Result<()> {
        self.put_bytes(text.as_bytes())
    }
}

impl<R: Read> Decoder<R> {
    /// A decoder of `input`, which holds `len` bytes of encoded fields.
    pub fn new(input: R, len: u64) -> Self {
        Self { input, remaining: len, block: Vec::new() }
    }

    /// Bytes not read yet (zero once every field is read: anything more is damage).
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// The reader, for what follows the encoded fields.
    pub fn into_inner(self) -> R {
        self.input
    }

    fn read_exact(&mut self, into: &mut [u8]) -> Result<(), DecodeError> {
        let len = into.len() as u64;
        if len > self.remaining {
            return Err(DecodeError::Truncated);
        }
        self.input.read_exact(into).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => DecodeError::Truncated,
            _ => DecodeError::Io(e),
        })?;
        self.remaining -= len;
        Ok(())
    }

    pub fn get_u8(&mut self) -> Result<u8, DecodeError> {
        let mut byte = [0u8];
        self.read_exact(&mut byte)?;
        Ok(byte[0])
    }

    pub fn get_bool(&mut self) -> Result<bool, DecodeError> {
        match self.get_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(DecodeError::Corrupt("a flag is neither 0 nor 1")),
        }
    }

    /// A count of elements of `element_bytes` each, refused when they cannot fit in the input.
    pub fn get_len(&mut self, element_bytes: usize) -> Result<usize, DecodeError> {
        let count = self.get_u64()?;
        match count.checked_mul(element_bytes.max(1) as u64) {
            Some(bytes) if bytes <= self.remaining => usize::try_from(count).map_err(|_| DecodeError::Truncated),
            _ => Err(DecodeError::Truncated),
        }
    }

    pub fn get_bytes(&mut self) -> Result<Vec<u8>, DecodeError> {
        let len = self.get_len(1)?;
        let mut bytes = vec![0u8; len];
        self.read_exact(&mut bytes)?;
        Ok(bytes)
    }

    pub fn get_str(&mut self) -> Result<String, DecodeError> {
        String::from_utf8(self.get_bytes()?).map_err(|_| DecodeError::Corrupt("a string is not UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_field_reads_back_as_written(
            small in any::<u16>(),
            floats in proptest::collection::vec(any::<f32>(), 0..40_000),
            ids in proptest::collection::vec(any::<i64>(), 0..100),
            text in ".{0,40}",
        ) {
            let mut encoder = Encoder::new(Vec::new());
            encoder.put_u16(small).unwrap();
            encoder.put_f32s(&floats).unwrap();
            encoder.put_i64s(&ids).unwrap();
            encoder.put_str(&text).unwrap();
            encoder.put_bool(true).unwrap();
            let written = encoder.position();
            let bytes = encoder.into_inner();
            prop_assert_eq!(written, bytes.len() as u64, "the position is the bytes written");
            let mut decoder = Decoder::new(bytes.as_slice(), bytes.len() as u64);
            prop_assert_eq!(decoder.get_u16().unwrap(), small);
            let read = decoder.get_f32s().unwrap();
            prop_assert_eq!(read.iter().map(|f| f.to_bits()).collect::<Vec<_>>(), floats.iter().map(|f| f.to_bits()).collect::<Vec<_>>());
            prop_assert_eq!(decoder.get_i64s().unwrap(), ids);
            prop_assert_eq!(decoder.get_str().unwrap(), text);
            prop_assert!(decoder.get_bool().unwrap());
            prop_assert_eq!(decoder.remaining(), 0);
        }

        #[test]
        fn a_cut_input_fails_and_never_over_allocates(cut in 0usize..60) {
            let mut encoder = Encoder::new(Vec::new());
            encoder.put_u32s(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
            encoder.put_str("boundary layer").unwrap();
            let bytes = encoder.into_inner();
            let cut = cut.min(bytes.len() - 1);
            let mut decoder = Decoder::new(&bytes[..cut], cut as u64);
            let read = decoder.get_u32s().and_then(|_| decoder.get_str());
            prop_assert!(matches!(read, Err(DecodeError::Truncated)), "{read:?}");
        }
    }

    #[test]
    fn a_huge_length_is_refused_before_allocating() {
        let mut encoder = Encoder::new(Vec::new());
        encoder.put_u64(u64::MAX / 2).unwrap();
        let bytes = encoder.into_inner();
        let mut decoder = Decoder::new(bytes.as_slice(), bytes.len() as u64);
        assert!(matches!(decoder.get_f32s(), Err(DecodeError::Truncated)));
    }
}
