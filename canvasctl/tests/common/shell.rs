//! Documented command blocks run through bash as written: the harness's only changes are the
//! `canvasctl` command (the built binary), free ports, and temporary directories for paths such
//! as `/backups`. A block that keeps running (a server) runs in its own process group, ended
//! with it when the test ends.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use super::BIN;

/// A port nothing listens on now (the kernel's choice, released at once).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A binary of the workspace beside `canvasctl` (`cargo build --workspace --bins` puts them
/// there, as `tests/run.sh` does before the tests).
pub fn sibling_binary(name: &str) -> PathBuf {
    let path = Path::new(BIN).with_file_name(name);
    assert!(path.exists(), "{} is not built: run `cargo build --workspace --bins`", path.display());
    path
}

/// `text` with every `(from, to)` replaced, each asserted to occur (so a harness whose
/// replacement no longer matches the docs fails instead of running something else).
pub fn replaced(text: &str, replacements: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    for (from, to) in replacements {
        assert!(out.contains(from), "the block no longer holds {from:?}:\n{text}");
        out = out.replace(from, to);
    }
    out
}

/// The prelude of every script: strict mode and `canvasctl` as the built binary.
fn prelude() -> String {
    format!("set -euo pipefail\ncanvasctl() {{ '{BIN}' \"$@\"; }}\n")
}

/// Runs `script` to its end in `dir` with `env`, asserting success; returns its output.
pub fn run(dir: &Path, env: &[(&str, &str)], script: &str) -> Output {
    let output = command(dir, env, script).output().expect("bash runs");
    assert!(
        output.status.success(),
        "the block failed ({}):\n{script}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn command(dir: &Path, env: &[(&str, &str)], script: &str) -> Command {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!("{}{script}", prelude()))
        .current_dir(dir)
        // The embedded database of the directory, whatever the environment of the test run says.
        .env_remove("CANVAS_DATABASE_URL");
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

/// A block that keeps running (a server, a receiver): its process group is sent SIGTERM, then
/// SIGKILL after 10 s, when this is dropped. Its standard output arrives line by line.
pub struct Background {
    child: Child,
    lines: Receiver<String>,
    /// Every line read so far, for the failure messages.
    pub seen: Vec<String>,
    /// Where its standard error goes, for the failure messages.
    errors: tempfile::NamedTempFile,
}

impl Background {
    pub fn start(dir: &Path, env: &[(&str, &str)], script: &str) -> Self {
        use std::os::unix::process::CommandExt;
        let errors = tempfile::NamedTempFile::new().unwrap();
        let mut child = command(dir, env, script)
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(errors.reopen().unwrap())
            .spawn()
            .expect("bash starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Self { child, lines, seen: Vec::new(), errors }
    }

    /// The first line (from now on) that `wanted` accepts, waiting at most `within`.
    pub fn line_where(&mut self, within: Duration, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no such line within {within:?}; it printed:\n{}\n--- stderr\n{}",
                    self.seen.join("\n"),
                    std::fs::read_to_string(self.errors.path()).unwrap_or_default()
                ),
            }
        }
    }

    /// Ends the process group and waits for it.
    pub fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.end();
        }
    }
}
