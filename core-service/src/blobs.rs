//! Where uploaded file content lives: content-addressed (SHA-256) blobs in
//! the local filesystem under the data directory, or in an S3-compatible
//! object store. The database keeps only the key.
//!
//! Local writes go to a temporary file that is fsynced, renamed into place
//! and followed by an fsync of its directory, so an acknowledged upload
//! survives a crash and a reader never sees half a file. Identical content is
//! stored once.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload};
use sha2::{Digest, Sha256};

use crate::error::{CoreError, CoreResult, Dependency};

/// The configured blob store.
#[derive(Clone, Debug)]
pub enum BlobStore {
    /// `DATA_DIR/blobs/ab/cd/<sha256>`.
    Local { root: PathBuf },
    /// Any `object_store` backend (S3 and compatible services).
    Object { store: Arc<dyn ObjectStore>, prefix: String },
}

impl BlobStore {
    /// `local` (or empty) keeps blobs under the data directory; `s3://bucket/prefix`
    /// uses S3, configured by the usual `AWS_*` environment variables
    /// (`AWS_ENDPOINT` for S3-compatible services).
    pub fn from_config(spec: Option<&str>, data_dir: &Path) -> anyhow::Result<Self> {
        match spec.map(str::trim).filter(|s| !s.is_empty() && *s != "local") {
            None => Ok(Self::Local { root: data_dir.join("blobs") }),
            Some(url) if url.starts_with("s3://") => {
                let rest = &url["s3://".len()..];
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                let store = object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket).build()?;
                Ok(Self::Object { store: Arc::new(store), prefix: prefix.trim_matches('/').to_owned() })
            }
            Some(other) => anyhow::bail!("CANVAS_BLOB_STORE must be 'local' or s3://bucket/prefix, got '{other}'"),
        }
    }

    /// An in-process `object_store` backend (tests use the local-filesystem
    /// one to drive the same code path as S3).
    pub fn object(store: Arc<dyn ObjectStore>, prefix: &str) -> Self {
        Self::Object { store, prefix: prefix.to_owned() }
    }

    /// Stores `bytes` and returns their key (the hex SHA-256).
    pub async fn put(&self, bytes: Vec<u8>) -> CoreResult<String> {
        let key = hex(&Sha256::digest(&bytes));
        match self {
            Self::Local { root } => {
                let path = local_path(root, &key);
                if tokio::fs::try_exists(&path).await.unwrap_or(false) {
                    return Ok(key);
                }
                let root = root.clone();
                let key_for_write = key.clone();
                tokio::task::spawn_blocking(move || write_durably(&local_path(&root, &key_for_write), &bytes))
                    .await
                    .map_err(|e| CoreError::internal(format!("blob writer panicked: {e}")))?
                    .map_err(|e| CoreError::Internal(anyhow::anyhow!(e).context("writing a blob")))?;
            }
            Self::Object { store, prefix } => {
                store.put(&object_path(prefix, &key), PutPayload::from(bytes)).await.map_err(|e| {
                    CoreError::unavailable(Dependency::BlobStore, format!("it did not accept the file: {e}"), 5)
                })?;
            }
        }
        Ok(key)
    }

    /// The bytes stored under `key`.
    pub async fn get(&self, key: &str) -> CoreResult<Vec<u8>> {
        if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(CoreError::internal(format!("malformed blob key {key}")));
        }
        match self {
            Self::Local { root } => tokio::fs::read(local_path(root, key))
                .await
                .map_err(|e| CoreError::Internal(anyhow::anyhow!(e).context(format!("reading blob {key}")))),
            Self::Object { store, prefix } => {
                let result = store
                    .get(&object_path(prefix, key))
                    .await
                    .map_err(|e| CoreError::unavailable(Dependency::BlobStore, format!("it did not answer: {e}"), 5))?;
                let bytes = result
                    .bytes()
                    .await
                    .map_err(|e| CoreError::unavailable(Dependency::BlobStore, format!("it did not answer: {e}"), 5))?;
                Ok(bytes.to_vec())
            }
        }
    }
}

fn local_path(root: &Path, key: &str) -> PathBuf {
    root.join(&key[0..2]).join(&key[2..4]).join(key)
}

fn object_path(prefix: &str, key: &str) -> ObjectPath {
    if prefix.is_empty() {
        ObjectPath::from(format!("{}/{}", &key[0..2], key))
    } else {
        ObjectPath::from(format!("{prefix}/{}/{}", &key[0..2], key))
    }
}

/// temp file → write → fsync → rename → fsync directory.
fn write_durably(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().ok_or_else(|| std::io::Error::other("blob path has no directory"))?;
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    std::fs::File::open(dir)?.sync_all()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn both_backends_store_by_content_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let local = BlobStore::from_config(None, dir.path()).unwrap();
        let object_dir = dir.path().join("object");
        std::fs::create_dir_all(&object_dir).unwrap();
        let fs = object_store::local::LocalFileSystem::new_with_prefix(&object_dir).unwrap();
        let object = BlobStore::object(Arc::new(fs), "canvas");
        for store in [local, object] {
            let key = store.put(b"hello".to_vec()).await.unwrap();
            assert_eq!(key, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
            assert_eq!(store.put(b"hello".to_vec()).await.unwrap(), key, "same content, same key");
            assert_eq!(store.get(&key).await.unwrap(), b"hello");
            assert!(store.get("../../etc/passwd").await.is_err());
        }
    }
}
