//! A local HTTPS receiver: a throw-away certificate authority, a server
//! certificate it signs, and a TLS accept loop serving an axum router.
//!
//! Used by `canvasctl webhooks listen`, the end-to-end tests and the
//! benchmark, so every one of them receives real calls over real TLS, with
//! the sender trusting only the generated CA (CANVAS_WEBHOOK_CA_CERTS).

use std::sync::Arc;

use anyhow::Context;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

/// A certificate authority that lives as long as this value.
pub struct LocalCa {
    /// Signs server certificates.
    issuer: Issuer<'static, KeyPair>,
    /// The CA certificate, PEM, for the sender's trust store.
    pem: String,
}

impl LocalCa {
    pub fn generate() -> anyhow::Result<Self> {
        let mut params = CertificateParams::new(Vec::<String>::new())?;
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, "canvas local webhook CA");
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate()?;
        let pem = params.self_signed(&key)?.pem();
        Ok(Self { issuer: Issuer::new(params, key), pem })
    }

    /// The CA certificate in PEM form.
    pub fn ca_pem(&self) -> &str {
        &self.pem
    }

    /// A fresh server certificate for `names` and its private key, both PEM, for a server that is
    /// not this crate's (a test's Python HTTPS server).
    pub fn server_pem(&self, names: &[&str]) -> anyhow::Result<(String, String)> {
        let params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())?;
        let key = KeyPair::generate()?;
        let cert = params.signed_by(&key, &self.issuer)?;
        Ok((cert.pem(), key.serialize_pem()))
    }

    /// A TLS server configuration with a fresh certificate for `names`
    /// (host names or IP addresses, e.g. `127.0.0.1` and `localhost`).
    pub fn server_config(&self, names: &[&str]) -> anyhow::Result<Arc<rustls::ServerConfig>> {
        let params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>())?;
        let key = KeyPair::generate()?;
        let cert = params.signed_by(&key, &self.issuer)?;
        let chain: Vec<CertificateDer<'static>> = vec![cert.der().clone()];
        let private = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        // Explicit provider: the dependency graph enables two, so there is no
        // process default to fall back on.
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .context("server certificate")?;
        Ok(Arc::new(config))
    }
}

/// Serves `router` over TLS on `listener` until `shutdown`. A failed
/// handshake ends only its own connection.
pub async fn serve_tls(
    listener: TcpListener,
    config: Arc<rustls::ServerConfig>,
    router: axum::Router,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let acceptor = TlsAcceptor::from(config);
    loop {
        let (tcp, _) = tokio::select! {
            accepted = listener.accept() => accepted?,
            _ = shutdown.cancelled() => return Ok(()),
        };
        let _ = tcp.set_nodelay(true);
        let (acceptor, router, shutdown) = (acceptor.clone(), router.clone(), shutdown.clone());
        tokio::spawn(async move {
            let Ok(tls) = acceptor.accept(tcp).await else { return };
            let service = TowerToHyperService::new(router);
            let connection = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(tls), service);
            tokio::select! {
                _ = connection => {}
                _ = shutdown.cancelled() => {}
            }
        });
    }
}
