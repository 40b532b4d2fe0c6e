//! Compiles `canvas/v1/*.proto` with protox (pure Rust), so no system `protoc`
//! is needed, and keeps the descriptor set for gRPC server reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let protos: Vec<PathBuf> = std::fs::read_dir("canvas/v1")?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "proto"))
        .collect();
    // The directory too, so that a new .proto file (not only a changed one) rebuilds.
    println!("cargo:rerun-if-changed=canvas/v1");
    for proto in &protos {
        println!("cargo:rerun-if-changed={}", proto.display());
    }
    let descriptors = protox::compile(&protos, ["."])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("canvas_descriptor.bin"), prost::Message::encode_to_vec(&descriptors))?;
    tonic_prost_build::configure().build_client(true).build_server(true).compile_fds(descriptors)?;
    Ok(())
}
