//! The OpenAI-compatible client against a local stand-in speaking the `/v1/embeddings` API.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use canvas_embed::{EmbedError, EmbeddingModel, OpenAiConfig, OpenAiEmbedder};
use serde_json::{json, Value};

const DIM: usize = 4;

/// How the stand-in answers.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Real shape, `data` in reverse order, vector = [index + 1, text length, 0, 0].
    Good,
    /// 401 with OpenAI's error body.
    Unauthorized,
    /// 503 with a plain-text body.
    Overloaded,
    /// 200 with a body that is not an embeddings response.
    NotAList,
    /// 200, valid shape, one vector too few.
    MissingVector,
    /// 200, vectors of the wrong length.
    WrongDimension,
    /// 200 with HTML.
    Html,
    /// Sleeps past the client's time-out.
    Slow,
}

struct StandIn {
    behaviour: Behaviour,
    requests: AtomicUsize,
}

async fn embeddings(State(s): State<Arc<StandIn>>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    s.requests.fetch_add(1, Ordering::SeqCst);
    assert_eq!(headers.get("authorization").and_then(|v| v.to_str().ok()), Some("Bearer sk-test"));
    assert_eq!(body["model"], "text-embedding-test");
    assert_eq!(body["encoding_format"], "float");
    let inputs: Vec<String> = serde_json::from_value(body["input"].clone()).expect("input is an array of strings");
    let data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .rev()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": [i as f32 + 1.0, t.len() as f32, 0.0, 0.0]}))
        .collect();
    let good = json!({"object": "list", "data": data, "model": "text-embedding-test",
                      "usage": {"prompt_tokens": 3, "total_tokens": 3}});
    match s.behaviour {
        Behaviour::Good => Json(good).into_response(),
        Behaviour::Unauthorized => (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error",
                                  "param": null, "code": "invalid_api_key"}})),
        )
            .into_response(),
        Behaviour::Overloaded => (StatusCode::SERVICE_UNAVAILABLE, "overloaded, try later").into_response(),
        Behaviour::NotAList => Json(json!({"data": "nope"})).into_response(),
        Behaviour::MissingVector => {
            let mut short = good;
            short["data"].as_array_mut().map(Vec::pop);
            Json(short).into_response()
        }
        Behaviour::WrongDimension => {
            Json(json!({"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": [1.0, 2.0]}]}))
                .into_response()
        }
        Behaviour::Html => (StatusCode::OK, "<html>proxy login</html>").into_response(),
        Behaviour::Slow => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Json(good).into_response()
        }
    }
}

/// Starts a stand-in on 127.0.0.1:0 and returns a client for it plus the request counter.
async fn client_for(behaviour: Behaviour, max_batch: usize) -> (OpenAiEmbedder, Arc<StandIn>) {
    let state = Arc::new(StandIn { behaviour, requests: AtomicUsize::new(0) });
    let app = Router::new().route("/v1/embeddings", post(embeddings)).with_state(Arc::clone(&state));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut config = OpenAiConfig::new(format!("http://{addr}/v1/"), "text-embedding-test", DIM);
    config.api_key = Some("sk-test".to_string());
    config.max_batch = max_batch;
    config.timeout = Duration::from_millis(800);
    (OpenAiEmbedder::new(config).unwrap(), state)
}

fn texts(n: usize) -> Vec<String> {
    (0..n).map(|i| "x".repeat(i + 1)).collect()
}

#[tokio::test]
async fn good_answers_come_back_in_input_order_normalised_and_batched() {
    let (client, state) = client_for(Behaviour::Good, 2).await;
    assert_eq!(client.dimension(), DIM);
    assert_eq!(client.model_id(), "openai:text-embedding-test");
    let input = texts(5);
    let vectors = client.embed(&input).await.unwrap();
    assert_eq!(vectors.len(), 5);
    assert_eq!(state.requests.load(Ordering::SeqCst), 3, "5 texts in batches of 2");
    for (i, v) in vectors.iter().enumerate() {
        // Batch-local index b and text length i + 1, scaled to unit length.
        let b = (i % 2) as f32 + 1.0;
        let len = (i + 1) as f32;
        let norm = (b * b + len * len).sqrt();
        assert!((v[0] - b / norm).abs() < 1e-6 && (v[1] - len / norm).abs() < 1e-6, "vector {i}: {v:?}");
    }
    assert!(client.embed(&[]).await.unwrap().is_empty());
}

#[tokio::test]
async fn http_errors_carry_status_and_message() {
    let (client, _) = client_for(Behaviour::Unauthorized, 8).await;
    let err = client.embed(&texts(1)).await.unwrap_err();
    match &err {
        EmbedError::Remote { status: 401, message, .. } => assert_eq!(message, "Incorrect API key provided"),
        other => panic!("expected Remote 401, got {other:?}"),
    }
    assert!(!err.is_transient());

    let (client, _) = client_for(Behaviour::Overloaded, 8).await;
    let err = client.embed(&texts(1)).await.unwrap_err();
    assert!(matches!(&err, EmbedError::Remote { status: 503, message, .. } if message == "overloaded, try later"));
    assert!(err.is_transient());
}

#[tokio::test]
async fn malformed_answers_are_refused() {
    for (behaviour, needle) in [
        (Behaviour::NotAList, "invalid type"),
        (Behaviour::MissingVector, "2 vectors for 3 inputs"),
        (Behaviour::WrongDimension, "length 2 where 4"),
        (Behaviour::Html, "expected value"),
    ] {
        let (client, _) = client_for(behaviour, 8).await;
        let input = if matches!(behaviour, Behaviour::WrongDimension) { texts(1) } else { texts(3) };
        match client.embed(&input).await {
            Err(EmbedError::Malformed { message, .. }) => assert!(message.contains(needle), "{message}"),
            other => panic!("expected Malformed containing {needle:?}, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn slow_and_unreachable_endpoints_fail_fast_and_clearly() {
    let (client, _) = client_for(Behaviour::Slow, 8).await;
    let started = Instant::now();
    let err = client.embed(&texts(1)).await.unwrap_err();
    assert!(matches!(err, EmbedError::Timeout { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(err.to_string().contains("timed out"));

    // A port that was just released: connection refused.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let client = OpenAiEmbedder::new(OpenAiConfig::new(format!("http://{addr}/v1"), "m", DIM)).unwrap();
    let err = client.embed(&texts(1)).await.unwrap_err();
    assert!(matches!(err, EmbedError::Unreachable { .. }), "{err:?}");
    assert!(err.is_transient());
}

#[test]
fn configuration_is_validated_and_the_key_never_printed() {
    assert!(OpenAiEmbedder::new(OpenAiConfig::new("", "m", 4)).is_err());
    assert!(OpenAiEmbedder::new(OpenAiConfig::new("http://127.0.0.1:1/v1", "m", 0)).is_err());
    let mut config = OpenAiConfig::new("http://127.0.0.1:1/v1", "m", 4);
    config.api_key = Some("sk-secret".to_string());
    assert!(!format!("{config:?}").contains("sk-secret"));
    let client = OpenAiEmbedder::new(config).unwrap();
    assert!(!format!("{client:?}").contains("sk-secret"));
}
