//! Graceful shutdown: a signal starts it, in-flight work gets a bounded grace period, a second
//! signal ends the process at once.
//!
//! Every `serve`/`run` entry point takes `impl Into<Shutdown>`: a bare [`CancellationToken`]
//! (tests) means the default grace period, [`Shutdown::new`] the configured one.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::process::DEFAULT_SHUTDOWN_GRACE_SECS;

/// When to stop, and how long in-flight work may take after that.
#[derive(Debug, Clone)]
pub struct Shutdown {
    /// Cancelled when the component should stop taking new work.
    pub token: CancellationToken,
    /// How long work already started may continue once `token` is cancelled.
    pub grace: Duration,
}

impl Shutdown {
    pub fn new(token: CancellationToken, grace: Duration) -> Self {
        Self { token, grace }
    }

    /// Resolves once shutdown has been requested.
    pub async fn requested(&self) {
        self.token.cancelled().await
    }

    pub fn is_requested(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Runs `work` to its end, except that once shutdown is requested it gets at most the grace
    /// period more: `None` means it was cut off (and dropped, which closes its connections).
    pub async fn finish_within<F: Future>(&self, what: &str, work: F) -> Option<F::Output> {
        let mut work = std::pin::pin!(work);
        tokio::select! {
            output = &mut work => return Some(output),
            _ = self.token.cancelled() => {}
        }
        match tokio::time::timeout(self.grace, work).await {
            Ok(output) => Some(output),
            Err(_) => {
                tracing::warn!(
                    grace_secs = self.grace.as_secs_f64(),
                    "{what} still running when the grace period ended; cut off"
                );
                None
            }
        }
    }
}

impl From<CancellationToken> for Shutdown {
    fn from(token: CancellationToken) -> Self {
        Self::new(token, Duration::from_secs(DEFAULT_SHUTDOWN_GRACE_SECS))
    }
}

impl From<&CancellationToken> for Shutdown {
    fn from(token: &CancellationToken) -> Self {
        token.clone().into()
    }
}

/// Resolves when the process gets SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sig) => {
                sig.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// A token cancelled on the first SIGINT or SIGTERM. A second signal exits at once with status
/// 130, for an operator who does not want to wait out the grace period.
pub fn shutdown_token() -> CancellationToken {
    let token = CancellationToken::new();
    let trigger = token.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        tracing::info!("shutdown requested; finishing work in flight (a second signal exits at once)");
        trigger.cancel();
        shutdown_signal().await;
        tracing::warn!("second shutdown signal; exiting without waiting");
        std::process::exit(130);
    });
    token
}

/// [`shutdown_token`] with the configured grace period.
pub fn on_signal(grace: Duration) -> Shutdown {
    Shutdown::new(shutdown_token(), grace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_finishing_within_the_grace_period_completes() {
        let shutdown = Shutdown::new(CancellationToken::new(), Duration::from_millis(500));
        shutdown.token.cancel();
        let out = shutdown.finish_within("test", async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            7
        });
        assert_eq!(out.await, Some(7));
    }

    #[tokio::test]
    async fn work_outlasting_the_grace_period_is_cut_off() {
        let shutdown = Shutdown::new(CancellationToken::new(), Duration::from_millis(50));
        let token = shutdown.token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            token.cancel();
        });
        let started = std::time::Instant::now();
        let out = shutdown.finish_within("test", std::future::pending::<()>()).await;
        assert_eq!(out, None);
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }

    #[tokio::test]
    async fn without_a_shutdown_work_runs_past_the_grace_period() {
        let shutdown = Shutdown::new(CancellationToken::new(), Duration::from_millis(10));
        let out = shutdown.finish_within("test", async {
            tokio::time::sleep(Duration::from_millis(60)).await;
            1
        });
        assert_eq!(out.await, Some(1));
    }
}
