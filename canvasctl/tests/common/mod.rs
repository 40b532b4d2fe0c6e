//! What the tests of the real `canvasctl` binary share: starting `canvasctl up` on a data
//! directory (stopped with SIGTERM when the test ends) and waiting until it answers.

#![allow(dead_code)] // each test binary uses its own part

pub mod load;
pub mod shell;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const BIN: &str = env!("CARGO_BIN_EXE_canvasctl");

/// `canvasctl up`, stopped with SIGTERM (then killed after 10 s) when dropped.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.0.kill();
    }
}

pub fn start(data_dir: &Path) -> Running {
    start_with_env(data_dir, &[])
}

/// [`start`] with extra environment variables (`CANVAS_*` settings).
pub fn start_with_env(data_dir: &Path, env: &[(&str, &str)]) -> Running {
    let child = Command::new(BIN)
        .args(["up", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .envs(env.iter().copied())
        .env_remove("CANVAS_DATABASE_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("canvasctl starts");
    Running(child)
}

/// Waits for the credentials file to name this run's addresses and for
/// `/readyz` to answer 200.
pub fn wait_ready(data_dir: &Path, previous_base: Option<&str>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "canvasctl up did not become healthy");
        std::thread::sleep(Duration::from_millis(100));
        let Ok(text) = std::fs::read_to_string(data_dir.join("dev-credentials.json")) else { continue };
        let Ok(creds) = serde_json::from_str::<Value>(&text) else { continue };
        let base = creds["baseUrl"].as_str().unwrap().to_owned();
        if previous_base == Some(base.as_str()) && !text.contains("never-matches") {
            continue;
        }
        let health = Command::new("curl")
            .args(["-s", "-o", "/dev/null", "-w", "%{http_code}", &format!("{base}/readyz")])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&health.stdout) == "200" {
            return creds;
        }
    }
}
