//! Placement of calls by project over several core-service replicas (rendezvous, or
//! highest-random-weight, hashing). A call that needs a project's search index carries the
//! project id in the [`PLACEMENT`] metadata; [`crate::channel::CoreChannel`] sends it to the
//! replica that ranks first for that project, and when that one is down to the next in the same
//! ranking. So each busy project's index is loaded by one replica instead of every one, every
//! gateway (whatever order its `--core` list is in) picks the same replica, and losing a replica
//! moves only its own projects, each to one other replica.

/// The metadata naming the project a call is placed by.
pub const PLACEMENT: &str = "x-canvas-placement";

/// Places `request` by `project`: it goes to the replica that ranks first for the project.
pub fn place_by_project<T>(request: &mut tonic::Request<T>, project: &str) {
    if let Ok(value) = tonic::metadata::MetadataValue::try_from(project) {
        request.metadata_mut().insert(PLACEMENT, value);
    }
}

/// The replicas' indexes ranked for `key`, best first: by the weight of each (key, replica name)
/// pair, names being the replicas' URLs, so the ranking does not depend on their order.
pub fn ranked<'a>(key: &[u8], names: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let mut weighted: Vec<(u64, usize)> =
        names.into_iter().enumerate().map(|(index, name)| (weight(key, name.as_bytes()), index)).collect();
    weighted.sort_unstable_by(|a, b| b.cmp(a));
    weighted.into_iter().map(|(_, index)| index).collect()
}

/// A 64-bit weight of the pair, stable across processes, builds and platforms (FNV-1a over both,
/// then the SplitMix64 finaliser so that near-equal inputs spread evenly).
fn weight(key: &[u8], name: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.iter().chain([0xff].iter()).chain(name) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLICAS: [&str; 3] = ["http://core-a:50051", "http://core-b:50051", "http://core-c:50051"];

    fn project(n: usize) -> String {
        format!("00000000-0000-4000-8000-{n:012}")
    }

    #[test]
    fn the_ranking_ignores_the_order_replicas_are_listed_in() {
        for n in 0..100 {
            let key = project(n);
            let first = REPLICAS[ranked(key.as_bytes(), REPLICAS)[0]];
            let reversed: Vec<&str> = REPLICAS.iter().rev().copied().collect();
            assert_eq!(first, reversed[ranked(key.as_bytes(), reversed.iter().copied())[0]]);
        }
    }

    #[test]
    fn projects_spread_evenly_and_a_lost_replica_moves_only_its_own() {
        let mut counts = [0usize; 3];
        for n in 0..3000 {
            let key = project(n);
            let order = ranked(key.as_bytes(), REPLICAS);
            counts[order[0]] += 1;
            // Without replica c, a project keeps its replica unless c was it; then it goes to
            // c's runner-up.
            let without_c = ranked(key.as_bytes(), REPLICAS[..2].iter().copied());
            let expected = if order[0] == 2 { order[1] } else { order[0] };
            assert_eq!(without_c[0], expected, "project {n}");
        }
        for count in counts {
            assert!((850..=1150).contains(&count), "an uneven spread: {counts:?}");
        }
    }

    #[test]
    fn weights_are_stable_across_builds() {
        // Fixed values (computed independently of this code): a change here would move every
        // project to another replica when gateways of two versions run side by side.
        assert_eq!(weight(b"p", b"r"), 0xf29f_97c7_78e4_2237);
        assert_eq!(weight(project(1).as_bytes(), REPLICAS[0].as_bytes()), 0xf8b6_bbec_5c8e_6b7a);
        assert_ne!(weight(b"p", b"r"), weight(b"r", b"p"));
        assert_ne!(weight(b"ab", b"c"), weight(b"a", b"bc"), "the separator keeps the pair apart");
    }
}
