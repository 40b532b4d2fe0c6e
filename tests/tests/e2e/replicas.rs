//! Several core-service replicas behind one gateway (`--core a,b`): calls are balanced over them,
//! reads keep working when one replica goes away, and retrieval is placed by project.

use std::sync::Arc;
use std::time::Duration;

use canvas_tests::{keyword_only, Backend, TestApp};
use core_service::knowledge::KnowledgeConfig;
use reqwest::StatusCode;
use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::support::{create_label, owner_with_project};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_over_two_cores_survives_losing_one() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "replicated"})).await;

    // A second core replica on the same database.
    let second = core_service::build(&app.another_core_config(keyword_only())).await.expect("a second replica starts");
    let second_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let second_url = format!("http://{}", second_listener.local_addr().unwrap());
    let stop_second = CancellationToken::new();
    let second_task = tokio::spawn(core_service::run(second_listener, second, stop_second.clone()));

    // A gateway balancing over both.
    let state = rest_gateway::AppState::connect(
        &format!("{},{second_url}", app.grpc_url),
        &canvas_runtime::GatewayArgs::default(),
    )
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gateway = format!("http://{}", listener.local_addr().unwrap());
    let limits = canvas_runtime::GatewayArgs::default();
    tokio::spawn(async move {
        rest_gateway::serve(listener, rest_gateway::router(state), &limits, CancellationToken::new()).await
    });
    let get = || {
        let url = format!("{gateway}/api/v2/projects/{project}/item/{label}?jsonCasing=camel");
        let request = app.http.get(url).header("Authorization", owner.bearer());
        async move { request.send().await.unwrap() }
    };
    for _ in 0..10 {
        assert_eq!(get().await.status(), StatusCode::OK);
    }

    // One replica goes away; every read still answers, through the other.
    stop_second.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(10), second_task).await;
    for i in 0..20 {
        let response = get().await;
        assert_eq!(response.status(), StatusCode::OK, "read {i} after losing a replica");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["text"], "replicated");
    }
}

/// Retrieval placed by project (`canvas_proto::placement`): behind one gateway over three core
/// replicas, each of 30 projects' search indexes is loaded by exactly one replica however often
/// it is asked, the replicas share the projects, and when a replica stops while queries run, none
/// fails and none misses the project's indexed item; its projects move, each to one replica.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retrieval_is_placed_by_project_and_survives_losing_a_replica() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, _) = owner_with_project(&app).await;
    let mut projects = Vec::new();
    for n in 0..30 {
        let project = app.project(&owner).await;
        let label = create_label(&app, &owner, &project, json!({"text": format!("placement marker{n}")})).await;
        projects.push((project, label, format!("marker{n}")));
    }
    for (project, _, _) in &projects {
        crate::knowledge::wait_indexed(&app, &owner, project).await;
    }

    // Two more replicas on the same database, and a gateway over the three.
    let mut cores = vec![app.core.clone()];
    let mut urls = vec![app.grpc_url.clone()];
    let mut stops = Vec::new();
    for _ in 0..2 {
        // Loading recent projects at start is for a replica alone (docs/DEPLOYMENT.md): off here.
        let knowledge = KnowledgeConfig { search_warm_projects: 0, ..keyword_only() };
        let core = core_service::build(&app.another_core_config(knowledge)).await.expect("a replica starts");
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        urls.push(format!("http://{}", listener.local_addr().unwrap()));
        let stop = CancellationToken::new();
        tokio::spawn(core_service::run(listener, core.clone(), stop.clone()));
        cores.push(core);
        stops.push(stop);
    }
    let state = rest_gateway::AppState::connect(&urls.join(","), &canvas_runtime::GatewayArgs::default()).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gateway = format!("http://{}", listener.local_addr().unwrap());
    let limits = canvas_runtime::GatewayArgs::default();
    tokio::spawn(async move {
        rest_gateway::serve(listener, rest_gateway::router(state), &limits, CancellationToken::new()).await
    });
    let ask = |project: String, word: String| {
        let request = app
            .http
            .post(format!("{gateway}/api/v1/memory/retrieve?jsonCasing=camel"))
            .header("Authorization", owner.bearer())
            .json(&json!({"projectId": project, "query": word}));
        async move {
            let response = request.send().await.unwrap();
            let status = response.status();
            (status, response.json::<serde_json::Value>().await.unwrap_or_default())
        }
    };
    let cites = |body: &serde_json::Value, label: &str| {
        body["citations"].as_array().is_some_and(|all| all.iter().any(|c| c["id"] == label))
    };
    // Loaded projects of each replica, among the test's.
    let held = |cores: &[Arc<core_service::service::Core>]| -> Vec<Vec<String>> {
        cores
            .iter()
            .map(|core| {
                let loaded = core.retrieval().search_indexes().loaded_projects();
                projects
                    .iter()
                    .filter(|(p, _, _)| loaded.iter().any(|l| l.to_string() == *p))
                    .map(|(p, _, _)| p.clone())
                    .collect()
            })
            .collect()
    };

    for round in 0..3 {
        for (project, label, word) in &projects {
            let (status, body) = ask(project.clone(), word.clone()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert!(cites(&body, label), "round {round}: {project} did not cite its item: {body}");
        }
    }
    let before = held(&cores);
    for (project, _, _) in &projects {
        let holders = before.iter().filter(|h| h.contains(project)).count();
        assert_eq!(holders, 1, "project {project} is held by {holders} replicas: {before:?}");
    }
    let counts: Vec<usize> = before.iter().map(Vec::len).collect();
    assert!(counts.iter().all(|&c| (3..=20).contains(&c)), "the replicas do not share the projects: {counts:?}");
    println!("projects held per replica: {counts:?}");
    // Resident index memory per replica: each holds its share, not every project (without
    // placement every replica that serves a project's queries loads it: here all three).
    let bytes: Vec<usize> = cores.iter().map(|core| core.retrieval().search_indexes().total_bytes()).collect();
    let total: usize = bytes.iter().sum();
    println!("search index bytes per replica: {bytes:?} (all three: {total})");
    for (replica, held) in bytes.iter().enumerate() {
        assert!(*held > 0 && *held * 10 <= total * 6, "replica {replica} holds {held} of {total} bytes: {bytes:?}");
    }

    // The busier of the two extra replicas stops while every project is asked again and again.
    let victim = if counts[1] >= counts[2] { 1 } else { 2 };
    let moved = before[victim].clone();
    let queries = async {
        let mut answered = 0;
        for round in 0..4 {
            for (project, label, word) in &projects {
                let (status, body) = ask(project.clone(), word.clone()).await;
                assert_eq!(status, StatusCode::OK, "round {round} while a replica stops: {body}");
                assert!(
                    cites(&body, label),
                    "round {round}: {project} missed its item while a replica stopped: {body}"
                );
                answered += 1;
            }
        }
        answered
    };
    let stop = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stops[victim - 1].cancel();
    };
    let (answered, ()) = tokio::join!(queries, stop);
    assert_eq!(answered, 120);
    let live: Vec<Arc<core_service::service::Core>> =
        cores.iter().enumerate().filter(|(i, _)| *i != victim).map(|(_, c)| c.clone()).collect();
    let after = held(&live);
    for project in &moved {
        let holders = after.iter().filter(|h| h.contains(project)).count();
        assert_eq!(holders, 1, "moved project {project} is held by {holders} live replicas: {after:?}");
    }
}
