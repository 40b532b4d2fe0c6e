//! Free loopback ports for child processes of the fault tests. The children
//! themselves are the `canvas-fault-child` binary of this package, which cargo
//! builds with the tests (`env!("CARGO_BIN_EXE_canvas-fault-child")`).

/// A free loopback port (bound and released), for a child to listen on.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
