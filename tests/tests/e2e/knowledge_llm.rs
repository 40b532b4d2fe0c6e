//! `postProcess: true`: reranking and the written answer through an OpenAI-compatible chat
//! completions endpoint. The LLM is a local stand-in speaking that HTTP API (the one third-party
//! service the tests cannot run), steered by the `model` name each agent configuration sends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode as AxumStatus;
use axum::routing::post;
use axum::{Json, Router};
use canvas_tests::{backend_tests, keyword_only, Backend, TestApp};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::net::TcpListener;

use crate::knowledge::{retrieve, wait_indexed};
use crate::support::{create_label, owner_with_project};

backend_tests!(post_process_reranks_and_answers, post_process_failures_are_clear);

/// Requests the stand-in received.
type Seen = Arc<Mutex<Vec<Value>>>;

/// The stand-in's behaviour by model name: `reverse` ranks the passages last to first and cites
/// two of them; `garbage` answers prose; `slow` answers after 5 s; `error` is an HTTP 500.
async fn chat_completions(State(seen): State<Seen>, Json(request): Json<Value>) -> Result<Json<Value>, AxumStatus> {
    seen.lock().unwrap().push(request.clone());
    let user = request["messages"][1]["content"].as_str().unwrap_or_default();
    let passages = user.lines().filter(|l| l.starts_with('[')).count();
    let content = match request["model"].as_str().unwrap_or_default() {
        "reverse" => {
            let ranking: Vec<usize> = (1..=passages).rev().collect();
            json!({"ranking": ranking, "answer": format!("Best is [{passages}]; see also [{}].", passages - 1)})
                .to_string()
        }
        "garbage" => "I am sorry, I cannot rank these passages.".to_owned(),
        "slow" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "{}".to_owned()
        }
        _ => return Err(AxumStatus::INTERNAL_SERVER_ERROR),
    };
    Ok(Json(json!({
        "id": "chatcmpl-test", "object": "chat.completion", "model": request["model"],
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
    })))
}

/// Starts the stand-in and an app whose agents file points at it.
async fn app_with_llm(backend: Backend) -> (TestApp, Seen, tempfile::TempDir) {
    let seen: Seen = Arc::default();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}/v1", listener.local_addr().unwrap());
    let router = Router::new().route("/v1/chat/completions", post(chat_completions)).with_state(seen.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });
    // A port nothing listens on: bind, note it, close.
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();

    let dir = tempfile::tempdir().unwrap();
    let agents = dir.path().join("agents.toml");
    std::fs::write(
        &agents,
        format!(
            "[agents.default]\nendpoint = \"{endpoint}\"\nmodel = \"reverse\"\nsystem_prompt = \"Rank well.\"\n\n\
             [agents.garbage]\nendpoint = \"{endpoint}\"\nmodel = \"garbage\"\n\n\
             [agents.slow]\nendpoint = \"{endpoint}\"\nmodel = \"slow\"\ntimeout_secs = 1\n\n\
             [agents.broken]\nendpoint = \"{endpoint}\"\nmodel = \"error\"\n\n\
             [agents.down]\nendpoint = \"http://{closed}/v1\"\nmodel = \"any\"\n"
        ),
    )
    .unwrap();
    let mut knowledge = keyword_only();
    knowledge.agents_file = Some(agents);
    (TestApp::spawn_with(backend, "development", knowledge).await, seen, dir)
}

async fn post_process_reranks_and_answers(backend: Backend) {
    let (app, seen, _dir) = app_with_llm(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let one = create_label(&app, &owner, &project, json!({"text": "glider one"})).await;
    let two = create_label(&app, &owner, &project, json!({"text": "glider two"})).await;
    let three = create_label(&app, &owner, &project, json!({"text": "glider three"})).await;
    wait_indexed(&app, &owner, &project).await;

    let plain = retrieve(&app, &owner, json!({"projectId": project, "query": "glider"})).await;
    let plain_ids: Vec<&str> =
        plain.body["citations"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(plain_ids, vec![one.as_str(), two.as_str(), three.as_str()], "equal scores keep insertion order");
    assert!(seen.lock().unwrap().is_empty(), "postProcess false never calls the LLM");

    let reply =
        retrieve(&app, &owner, json!({"projectId": project, "query": "glider", "postProcess": true, "maxResults": 2}))
            .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let citations = reply.body["citations"].as_array().unwrap();
    let ids: Vec<&str> = citations.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![three.as_str(), two.as_str()], "the model's order, cut at maxResults");
    assert_eq!(citations[0]["index"], 1);
    assert_eq!(citations[0]["chunk"], "glider three");
    assert_eq!(citations[0]["relevance"], 1.0);
    assert_eq!(citations[1]["relevance"], 0.5);
    // The model cited candidates [3] and [2]; they are citations 1 and 2 of the response.
    assert_eq!(reply.body["answer"], "Best is [1]; see also [2].");

    let requests = seen.lock().unwrap().clone();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request["model"], "reverse");
    assert_eq!(request["messages"][0], json!({"role": "system", "content": "Rank well."}));
    let user = request["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains(&format!("[1] (item {one}) glider one")), "{user}");
    assert!(user.contains("Question: glider"), "{user}");
}

async fn post_process_failures_are_clear(backend: Backend) {
    let (app, _seen, _dir) = app_with_llm(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "glider"})).await;
    wait_indexed(&app, &owner, &project).await;
    // An answer without a usable ranking is the spec's "error during retrieval": a 400 naming postProcess.
    let body = json!({"projectId": project, "query": "glider", "postProcess": true, "agentConfigId": "garbage"});
    let reply = retrieve(&app, &owner, body).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.fields(), vec!["postProcess"], "{}", reply.body);
    assert_eq!(reply.body["reason"], "VALIDATION_FAILED");
    let detail = reply.body["detail"].as_str().unwrap();
    assert!(detail.contains("not the expected JSON ranking") && detail.contains("'garbage'"), "{detail}");
    // A language model that is down, slow or failing is a dependency outage: 503 naming it, with
    // Retry-After, never a 400 blaming the request.
    for (agent, says) in
        [("slow", "did not answer within"), ("broken", "answered HTTP 500"), ("down", "could not be reached")]
    {
        let body = json!({"projectId": project, "query": "glider", "postProcess": true, "agentConfigId": agent});
        let response = app
            .http
            .post(format!("{}/api/v1/memory/retrieve", app.base_url))
            .header("Authorization", owner.bearer())
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{agent}");
        assert!(response.headers().get("retry-after").is_some(), "{agent}: Retry-After");
        let problem: Value = response.json().await.unwrap();
        assert_eq!(problem["Reason"], "DEPENDENCY_UNAVAILABLE", "{agent}: {problem}");
        assert_eq!(problem["Dependency"], "llm", "{agent}: {problem}");
        let detail = problem["Detail"].as_str().unwrap();
        assert!(detail.contains(says) && detail.contains(&format!("'{agent}'")), "{agent}: {detail}");
        assert!(!detail.contains("core-service is unreachable"), "{agent}: {detail}");
    }
    // The same agents without postProcess never touch the LLM and answer normally.
    let reply = retrieve(&app, &owner, json!({"projectId": project, "query": "glider", "agentConfigId": "down"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["citations"].as_array().unwrap().len(), 1);
}
