//! Model-based tests: random sequences of operations through the real service (creates of every
//! kind inside containers, updates, concurrent writers on one item, deletes of containers and
//! leaves, connects, bulk creates with in-batch parents, arrangements, uploads, diagram create,
//! `PUT` and `DELETE`, tags made, given to items and deleted, comment threads opened on items),
//! compared after every step with the
//! reference model in `model.rs`: the listing equals the model, every parent resolves to `panel`,
//! `inbox` or a live item that may hold it, no connector end names a missing item, no item
//! carries a tag that is gone and each carries the model's, every thread is on its item while the
//! item lives and on the point where it was after (naming it), the events written are exactly the model's
//! changes (deletes deepest first), and the map renders and exports as Mermaid.
//!
//! `proptest-state-machine` generates and shrinks the sequences. The test command runs
//! `CANVAS_MODEL_CASES` sequences (default 12) of up to `CANVAS_MODEL_STEPS` steps (default 24)
//! per backend from a fixed seed, so a run is reproducible; `CANVAS_MODEL_SEED` (64 hex digits)
//! picks another one, and `bench/model_sequences.sh` runs many more cases from fresh seeds. A
//! failure is saved as a regression seed in `model_sequences.proptest-regressions` beside this
//! file and replayed first by every later run: commit it.

mod model;
mod replay;
mod system;

use std::cell::Cell;

use canvas_tests::Backend;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};

use model::{Model, Op, Reference};
use system::System;

/// The seed of the test command's runs: fixed, so CI is reproducible.
const SEED: [u8; 32] = *b"canvas-model-sequences-seed-0001";

/// Where failures are kept (relative to the tests crate, as proptest reads it).
const REGRESSIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/e2e/model_sequences.proptest-regressions");

thread_local! {
    /// The backend of the sequences run on this thread (nextest runs each test in its own process).
    static BACKEND: Cell<Backend> = const { Cell::new(Backend::Sqlite) };
}

struct Sequences;

impl StateMachineTest for Sequences {
    type SystemUnderTest = System;
    type Reference = Reference;

    fn init_test(_: &Model) -> System {
        System::start(BACKEND.get())
    }

    fn apply(mut system: System, model: &Model, op: Op) -> System {
        system.run(model, &op);
        system
    }

    fn check_invariants(system: &System, model: &Model) {
        system.check(model);
    }
}

fn setting(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn seed() -> [u8; 32] {
    let Ok(hex) = std::env::var("CANVAS_MODEL_SEED") else { return SEED };
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("CANVAS_MODEL_SEED is 64 hex digits"))
        .collect();
    bytes.try_into().expect("CANVAS_MODEL_SEED is 64 hex digits")
}

fn run(backend: Backend) {
    BACKEND.set(backend);
    let (cases, steps) = (setting("CANVAS_MODEL_CASES", 12), setting("CANVAS_MODEL_STEPS", 24) as usize);
    let config = Config {
        cases,
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(REGRESSIONS))),
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config.clone(), TestRng::from_seed(RngAlgorithm::ChaCha, &seed()));
    let strategy = Reference::sequential_strategy(1..=steps);
    let outcome = runner.run(&strategy, |(initial, transitions, seen)| {
        Sequences::test_sequential(config.clone(), initial, transitions, seen);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

mod sqlite {
    #[test]
    fn sequences_keep_every_invariant() {
        super::run(canvas_tests::Backend::Sqlite);
    }
}

mod postgres {
    #[test]
    fn sequences_keep_every_invariant() {
        if let Some(backend) = canvas_tests::Backend::postgres_or_skip() {
            super::run(backend);
        }
    }
}
