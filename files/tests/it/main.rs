//! Integration tests of canvas-files, one binary (one link) for all of them.

mod extract;
mod generate;
mod sniff;
mod svg;
