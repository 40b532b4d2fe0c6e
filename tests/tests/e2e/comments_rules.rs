//! Comment threads' rules over REST (docs/COMMENTS.md "Rules"): every rule's refusal naming its
//! field (the label rule's active content, the bounds of text and position, exactly one anchor, ids
//! that are not GUIDs or name nothing here), resolving twice and reopening, and mentions by login as
//! the doc reads them (an e-mail address mentions nobody).

use canvas_tests::{backend_tests, Backend, TestApp};
use canvas_vocabulary::limits::comments::{MAX_COORDINATE, MAX_MENTIONS, MAX_TEXT_CHARS};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::comments::{
    add_reply, assert_refused, comments_url, listed, member_with_login, open_thread, patch_thread, point, read_thread,
    request, string, time, version, UNKNOWN,
};
use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    every_rule_refuses_naming_its_field,
    ids_that_are_malformed_unknown_or_of_another_project,
    resolving_twice_changes_nothing_and_reopening_clears,
    mentions_name_members_by_login_and_nothing_else
);

async fn every_rule_refuses_naming_its_field(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "target"})).await;
    let gone = create_label(&app, &owner, &project, json!({"text": "gone"})).await;
    let deleted =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{gone}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let (other, elsewhere) = owner_with_project(&app).await;
    let foreign = create_label(&app, &other, &elsewhere, json!({"text": "not yours"})).await;
    // The owner is a member there too: an item of a project one may read is still no item of this one.
    app.add_member(&elsewhere, &owner, ProjectRole::Admin).await;

    let on = |text: Value| json!({"text": text, "itemId": label});
    let at = |position: Value| json!({"text": "here", "position": position});
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    let beyond = MAX_COORDINATE + 1.0;
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        ("no text", json!({"itemId": label}), vec!["text"]),
        ("empty text", on(json!("")), vec!["text"]),
        ("blank text", on(json!("   ")), vec!["text"]),
        ("blank lines", on(json!("\n\t \r\n")), vec!["text"]),
        ("unicode spaces only", on(json!("\u{00A0}\u{3000}")), vec!["text"]),
        ("text a number", on(json!(5)), vec!["text"]),
        ("text null", on(Value::Null), vec!["text"]),
        ("text an object", on(json!({"text": "x"})), vec!["text"]),
        ("one character too long", on(json!(long)), vec!["text"]),
        ("U+0000", on(json!("a\u{0}b")), vec!["text"]),
        ("script", on(json!("<script>alert(1)</script>")), vec!["text"]),
        ("script in a sentence", on(json!("see <script>fetch('/steal')</script> here")), vec!["text"]),
        ("event handler", on(json!("<img src=x onerror=alert(1)>")), vec!["text"]),
        ("javascript link", on(json!(r#"<a href="javascript:alert(1)">x</a>"#)), vec!["text"]),
        ("encoded javascript link", on(json!(r#"<a href="&#106;avascript:alert(1)">x</a>"#)), vec!["text"]),
        ("iframe", on(json!(r#"<iframe src="https://example.org/"></iframe>"#)), vec!["text"]),
        ("style url", on(json!(r#"<span style="background:url(https://example.org/x)">x</span>"#)), vec!["text"]),
        ("malformed HTML", on(json!("<b>open</i>")), vec!["text"]),
        ("no anchor", json!({"text": "floating"}), vec!["itemId"]),
        ("both anchors", json!({"text": "x", "itemId": label, "position": {"x": 1, "y": 2}}), vec!["itemId"]),
        ("itemId not a GUID", json!({"text": "x", "itemId": "label-1"}), vec!["itemId"]),
        ("itemId empty", json!({"text": "x", "itemId": ""}), vec!["itemId"]),
        ("itemId a number", json!({"text": "x", "itemId": 7}), vec!["itemId"]),
        ("itemId unknown", json!({"text": "x", "itemId": UNKNOWN}), vec!["itemId"]),
        ("itemId deleted", json!({"text": "x", "itemId": gone}), vec!["itemId"]),
        ("itemId of another project", json!({"text": "x", "itemId": foreign}), vec!["itemId"]),
        ("x beyond the bound", at(json!({"x": beyond, "y": 0})), vec!["position.x"]),
        ("y beyond the bound", at(json!({"x": 0, "y": -beyond})), vec!["position.y"]),
        ("x far beyond", at(json!({"x": 1e300, "y": 0})), vec!["position.x"]),
        ("x a string", at(json!({"x": "1", "y": 2})), vec!["position.x"]),
        ("y null", at(json!({"x": 1, "y": null})), vec!["position.y"]),
        ("y missing", at(json!({"x": 1})), vec!["position.y", "position"]),
        ("position a string", at(json!("here")), vec!["position"]),
        ("position a list", at(json!([1, 2])), vec!["position"]),
        ("an unknown property", json!({"text": "x", "itemId": label, "colour": "red"}), vec!["colour"]),
    ];
    for (case, body, fields) in &cases {
        let reply = request(&app, &owner, Method::POST, &project, "", Some(body.clone())).await;
        assert_refused(&reply, fields, case);
        if case.contains("script") {
            assert!(reply.body.to_string().contains("active content"), "{case}: {}", reply.body);
        }
    }
    // A number beyond a double is no number.
    let raw = app
        .http
        .post(comments_url(&app, &project, ""))
        .header("Authorization", owner.bearer())
        .header("Content-Type", "application/json")
        .body(r#"{"text": "x", "position": {"x": 1e400, "y": 0}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
    assert_eq!(listed(&app, &owner, &project, "").await, Vec::<String>::new(), "no refusal wrote a thread");

    // The bounds themselves are accepted.
    let edge = open_thread(&app, &owner, &project, at(json!({"x": MAX_COORDINATE, "y": -MAX_COORDINATE}))).await;
    assert_eq!(point(&edge["position"]), (MAX_COORDINATE, -MAX_COORDINATE));
    let origin = open_thread(&app, &owner, &project, at(json!({"x": 0, "y": 0}))).await;
    assert_eq!(point(&origin["position"]), (0.0, 0.0));

    // A thread's PATCH and a reply refuse by the same rules, and a refusal changes nothing.
    let thread = open_thread(&app, &owner, &project, on(json!("before"))).await;
    let id = string(&thread, "threadId");
    for (case, body, field) in [
        ("empty text", json!({"text": ""}), "text"),
        ("blank text", json!({"text": " \n "}), "text"),
        ("too long", json!({"text": long}), "text"),
        ("script", json!({"text": "<script>alert(1)</script>"}), "text"),
        ("U+0000", json!({"text": "\u{0}"}), "text"),
        ("text a number", json!({"text": 5}), "text"),
        ("resolved a string", json!({"resolved": "yes"}), "resolved"),
        ("resolved a number", json!({"resolved": 1}), "resolved"),
        ("a script beside a resolve", json!({"text": "<script>x</script>", "resolved": true}), "text"),
        ("moving to an item", json!({"itemId": label}), "itemId"),
        ("an empty PATCH", json!({}), "text"),
        ("only nulls", json!({"text": null, "resolved": null}), "text"),
    ] {
        assert_refused(&patch_thread(&app, &owner, &project, &id, body).await, &[field], case);
    }
    assert_eq!(read_thread(&app, &owner, &project, &id).await, thread, "the refused PATCHes changed nothing");
    let reply = add_reply(&app, &owner, &project, &id, "a reply").await;
    let answered = read_thread(&app, &owner, &project, &id).await;
    let reply_url = format!("/{id}/replies/{}", string(&reply, "commentId"));
    let replies = format!("/{id}/replies");
    for (case, body, field) in [
        ("no text", json!({}), "text"),
        ("blank", json!({"text": "\t"}), "text"),
        ("too long", json!({"text": long}), "text"),
        ("script", json!({"text": "<p onclick=\"x()\">hi</p>"}), "text"),
        ("U+0000", json!({"text": "a\u{0}"}), "text"),
        ("an anchor", json!({"text": "x", "position": {"x": 1, "y": 1}}), "position"),
    ] {
        let added = request(&app, &owner, Method::POST, &project, &replies, Some(body.clone())).await;
        assert_refused(&added, &[field], &format!("reply: {case}"));
        let edited = request(&app, &owner, Method::PATCH, &project, &reply_url, Some(body)).await;
        if field == "text" && case != "no text" {
            assert_refused(&edited, &[field], &format!("reply edit: {case}"));
        } else {
            assert_eq!(edited.status, StatusCode::BAD_REQUEST, "reply edit: {case}: {}", edited.body);
        }
    }
    let unchanged = read_thread(&app, &owner, &project, &id).await;
    assert_eq!(unchanged, answered, "the refused replies and edits changed nothing");
    assert_eq!(unchanged["text"], "before");
    assert_eq!(unchanged["resolved"], false, "the refused PATCH resolved nothing");
    assert_eq!(unchanged["replies"], json!([reply]));
    assert_eq!(unchanged["editedAt"], Value::Null);
}

async fn ids_that_are_malformed_unknown_or_of_another_project(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let thread = string(
        &open_thread(&app, &owner, &project, json!({"text": "t", "position": {"x": 0, "y": 0}})).await,
        "threadId",
    );
    let reply = string(&add_reply(&app, &owner, &project, &thread, "r").await, "commentId");
    let other = string(
        &open_thread(&app, &owner, &project, json!({"text": "u", "position": {"x": 1, "y": 1}})).await,
        "threadId",
    );
    let others_reply = string(&add_reply(&app, &owner, &project, &other, "s").await, "commentId");
    // The same owner's other project.
    let elsewhere = app.project(&owner).await;
    let far = string(
        &open_thread(&app, &owner, &elsewhere, json!({"text": "far", "position": {"x": 0, "y": 0}})).await,
        "threadId",
    );
    let far_reply = string(&add_reply(&app, &owner, &elsewhere, &far, "far reply").await, "commentId");
    let text = || Some(json!({"text": "x"}));

    for (method, rest, body, field) in [
        (Method::GET, "/not-a-guid".to_owned(), None, "threadId"),
        (Method::GET, "/12345".to_owned(), None, "threadId"),
        (Method::PATCH, "/not-a-guid".to_owned(), text(), "threadId"),
        (Method::DELETE, "/not-a-guid".to_owned(), None, "threadId"),
        (Method::POST, "/not-a-guid/replies".to_owned(), text(), "threadId"),
        (Method::PATCH, "/not-a-guid/replies/{reply}".replace("{reply}", &reply), text(), "threadId"),
        (Method::PATCH, format!("/{thread}/replies/not-a-guid"), text(), "commentId"),
        (Method::DELETE, format!("/{thread}/replies/not-a-guid"), None, "commentId"),
        (Method::DELETE, format!("/{thread}/replies/{}", &reply[..30]), None, "commentId"),
    ] {
        let answer = request(&app, &owner, method.clone(), &project, &rest, body).await;
        assert_refused(&answer, &[field], &format!("{method} {rest}"));
    }

    for (method, rest, body) in [
        (Method::GET, format!("/{UNKNOWN}"), None),
        (Method::PATCH, format!("/{UNKNOWN}"), text()),
        (Method::PATCH, format!("/{UNKNOWN}"), Some(json!({"resolved": true}))),
        (Method::DELETE, format!("/{UNKNOWN}"), None),
        (Method::POST, format!("/{UNKNOWN}/replies"), text()),
        (Method::PATCH, format!("/{thread}/replies/{UNKNOWN}"), text()),
        (Method::DELETE, format!("/{thread}/replies/{UNKNOWN}"), None),
        // A reply of another thread is no reply of this one.
        (Method::PATCH, format!("/{thread}/replies/{others_reply}"), text()),
        (Method::DELETE, format!("/{thread}/replies/{others_reply}"), None),
        // A thread of another project is no thread of this one, even to a member of both.
        (Method::GET, format!("/{far}"), None),
        (Method::PATCH, format!("/{far}"), Some(json!({"resolved": true}))),
        (Method::DELETE, format!("/{far}"), None),
        (Method::POST, format!("/{far}/replies"), text()),
        (Method::DELETE, format!("/{far}/replies/{far_reply}"), None),
        (Method::DELETE, format!("/{thread}/replies/{far_reply}"), None),
    ] {
        let answer = request(&app, &owner, method.clone(), &project, &rest, body).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {rest}: {}", answer.body);
        assert_eq!(answer.content_type, "application/problem+json", "{method} {rest}");
    }
    // The thread's own first comment is not one of its replies: the reply paths refuse it.
    let opening = request(&app, &owner, Method::DELETE, &project, &format!("/{thread}/replies/{thread}"), None).await;
    assert_refused(&opening, &["commentId"], "deleting the first comment as a reply");
    let edit = request(&app, &owner, Method::PATCH, &project, &format!("/{thread}/replies/{thread}"), text()).await;
    assert_refused(&edit, &["commentId"], "editing the first comment as a reply");
    let kept = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!((kept["text"].clone(), kept["replyCount"].clone()), (json!("t"), json!(1)));
    let far_kept = read_thread(&app, &owner, &elsewhere, &far).await;
    assert_eq!((far_kept["resolved"].clone(), far_kept["replyCount"].clone()), (json!(false), json!(1)));
    // Upper-case GUIDs name the same thread.
    let upper = read_thread(&app, &owner, &project, &thread.to_uppercase()).await;
    assert_eq!(upper["threadId"], json!(thread));
}

async fn resolving_twice_changes_nothing_and_reopening_clears(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let opened =
        open_thread(&app, &owner, &project, json!({"text": "Is this right?", "position": {"x": 5, "y": 5}})).await;
    let thread = string(&opened, "threadId");

    let resolved = patch_thread(&app, &viewer, &project, &thread, json!({"resolved": true})).await;
    assert_eq!(resolved.status, StatusCode::OK, "{}", resolved.body);
    let resolved = resolved.body;
    assert_eq!(resolved["resolved"], true);
    assert_eq!(resolved["resolvedByUserId"], json!(viewer.id), "a viewer resolves");
    assert!(time(&resolved["resolvedAt"]) >= time(&opened["createdAt"]), "{resolved}");
    assert!(version(&resolved) > version(&opened));
    assert_eq!(resolved["text"], opened["text"]);
    assert_eq!(resolved["editedAt"], Value::Null, "resolving edits no text");

    // Again, by someone else: 200 and the thread as it is, nothing changed.
    let again = patch_thread(&app, &owner, &project, &thread, json!({"resolved": true})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body, resolved, "a second resolve changes nothing, not even who resolved it");
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, resolved);

    // Reopened: the resolution is cleared; reopening an open thread changes nothing.
    let reopened = patch_thread(&app, &owner, &project, &thread, json!({"resolved": false})).await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.body);
    let reopened = reopened.body;
    assert_eq!(
        (reopened["resolved"].clone(), reopened["resolvedAt"].clone(), reopened["resolvedByUserId"].clone()),
        (json!(false), Value::Null, Value::Null)
    );
    assert!(version(&reopened) > version(&resolved));
    let still = patch_thread(&app, &viewer, &project, &thread, json!({"resolved": false})).await;
    assert_eq!(still.status, StatusCode::OK, "{}", still.body);
    assert_eq!(still.body, reopened);

    // Text and resolution in one PATCH, by the author.
    let both =
        patch_thread(&app, &owner, &project, &thread, json!({"text": "Is this right? (fixed)", "resolved": true}))
            .await;
    assert_eq!(both.status, StatusCode::OK, "{}", both.body);
    assert_eq!(
        (both.body["text"].clone(), both.body["resolved"].clone()),
        (json!("Is this right? (fixed)"), json!(true))
    );
    assert_eq!(both.body["resolvedByUserId"], json!(owner.id));
    assert!(both.body["editedAt"].is_string());
    // A resolved thread takes replies and stays resolved.
    add_reply(&app, &viewer, &project, &thread, "Looks right now.").await;
    let after = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!((after["resolved"].clone(), after["replyCount"].clone()), (json!(true), json!(1)));
    // Someone else's text with a reopen is refused whole: the thread is not reopened.
    let refused = patch_thread(&app, &viewer, &project, &thread, json!({"text": "mine now", "resolved": false})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, after, "a refusal changes nothing");

    // Eight people resolving one open thread at once: one resolution, and every answer shows it.
    let people = {
        let mut people = vec![owner.clone(), viewer.clone()];
        for n in 0..6 {
            let user = app.user(&format!("reviewer {n}")).await;
            app.add_member(&project, &user, if n % 2 == 0 { ProjectRole::Viewer } else { ProjectRole::Editor }).await;
            people.push(user);
        }
        people
    };
    let fresh = open_thread(&app, &owner, &project, json!({"text": "race", "position": {"x": 9, "y": 9}})).await;
    let fresh_id = string(&fresh, "threadId");
    let racing = people.iter().map(|user| patch_thread(&app, user, &project, &fresh_id, json!({"resolved": true})));
    let answers = futures::future::join_all(racing).await;
    let settled = read_thread(&app, &owner, &project, &fresh_id).await;
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert_eq!(answer.body, settled, "every resolve answers the one resolution");
    }
    assert!(version(&settled) > version(&fresh));
    assert!(people.iter().any(|p| settled["resolvedByUserId"] == json!(p.id)), "{settled}");
}

async fn mentions_name_members_by_login_and_nothing_else(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let ann = member_with_login(&app, &project, "Ann", "ann", ProjectRole::Editor).await;
    let ann_lee = member_with_login(&app, &project, "Ann Lee", "ann.lee", ProjectRole::Viewer).await;
    let dee = member_with_login(&app, &project, "Dee", "dee@studio", ProjectRole::Viewer).await;
    let ola = member_with_login(&app, &project, "Ola", "Ola", ProjectRole::Manager).await;
    // A member whose login is a domain: an e-mail address at it still mentions nobody.
    member_with_login(&app, &project, "Example", "example.com", ProjectRole::Viewer).await;
    // A member without a login, and a person with a login who is no member.
    let zed = app.user("zed").await;
    app.add_member(&project, &zed, ProjectRole::Editor).await;
    app.account_user("Stranger", "stranger", "").await;
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;

    let (a, l, d, o) = (ann.id.as_str(), ann_lee.id.as_str(), dee.id.as_str(), ola.id.as_str());
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("@ann please look", vec![a]),
        ("@ANN and @Ann again, @ann", vec![a]),
        ("(@ann.lee) then @ann", vec![l, a]),
        ("thanks @ann.", vec![a]),
        ("thanks @ann...", vec![a]),
        ("cc @ann.lee, @ann_", vec![l, a]),
        ("ping @ann-", vec![a]),
        ("@dee@studio can you review?", vec![d]),
        ("line one\n@OLA line two", vec![o]),
        ("@ola: @dee@studio; @ann!", vec![o, d, a]),
        ("<p>Hi <b>@ann</b>, see <i>this</i></p>", vec![a]),
        ("write to bob@example.com", vec![]),
        ("mail ann@ann.lee about it", vec![]),
        ("é@ann is no mention", vec![]),
        ("@ann.lee.ann names nobody", vec![]),
        ("ping @ann@example.com", vec![]),
        ("@stranger is no member", vec![]),
        ("@zed has no login", vec![]),
        ("@Zed neither", vec![]),
        ("@nobody hello", vec![]),
        ("just an @ sign", vec![]),
        ("@", vec![]),
    ];
    let mut threads = Vec::new();
    for (text, expected) in &cases {
        let made = open_thread(&app, &owner, &project, json!({"text": text, "itemId": label})).await;
        assert_eq!(made["mentions"], json!(expected), "{text:?}");
        assert_eq!(made["text"], json!(text), "an @word that names nobody is plain text: {text:?}");
        threads.push(string(&made, "threadId"));
    }
    // The same rule for replies; an edit reads its mentions again.
    let thread = threads[0].clone();
    let answer = add_reply(&app, &ann, &project, &thread, "@ann.lee done, and @dee@studio.").await;
    assert_eq!(answer["mentions"], json!([l, d]));
    let reply_url = format!("/{thread}/replies/{}", string(&answer, "commentId"));
    let edited = request(&app, &ann, Method::PATCH, &project, &reply_url, Some(json!({"text": "@ola only"}))).await;
    assert_eq!(edited.body["mentions"], json!([o]), "{}", edited.body);
    let retargeted = patch_thread(&app, &owner, &project, &thread, json!({"text": "now @dee@studio"})).await;
    assert_eq!(retargeted.body["mentions"], json!([d]), "{}", retargeted.body);
    // The filter reads the current texts: threads 0 (ola in the edited reply), 8 and 9.
    let mentioning_ola = listed(&app, &owner, &project, &format!("mentions={o}")).await;
    assert_eq!(mentioning_ola, [threads[0].clone(), threads[8].clone(), threads[9].clone()]);
    assert_eq!(listed(&app, &ola, &project, "mentions=me").await, mentioning_ola);
    let mentioning_ann = listed(&app, &ann, &project, "mentions=me").await;
    let expected: Vec<String> =
        cases.iter().zip(&threads).skip(1).filter(|((_, m), _)| m.contains(&a)).map(|(_, t)| t.clone()).collect();
    assert_eq!(mentioning_ann, expected, "thread 0 no longer mentions ann");
    assert_eq!(listed(&app, &zed, &project, "mentions=me").await, Vec::<String>::new());

    // Each person once however often named; at most MAX_MENTIONS people in one comment.
    let repeated = ["@ann"; 200].join(" ");
    let made = open_thread(&app, &owner, &project, json!({"text": repeated, "itemId": label})).await;
    assert_eq!(made["mentions"], json!([a]));
    let mut many = Vec::new();
    for n in 0..=MAX_MENTIONS {
        many.push(member_with_login(&app, &project, &format!("M{n}"), &format!("m{n:02}"), ProjectRole::Viewer).await);
    }
    let names = |count: usize| (0..count).map(|n| format!("@m{n:02}")).collect::<Vec<_>>().join(" ");
    let most = open_thread(&app, &owner, &project, json!({"text": names(MAX_MENTIONS), "itemId": label})).await;
    let ids: Vec<Value> = many[..MAX_MENTIONS].iter().map(|u| json!(u.id)).collect();
    assert_eq!(most["mentions"], Value::Array(ids), "every one, in the order named");
    let too_many = request(
        &app,
        &owner,
        Method::POST,
        &project,
        "",
        Some(json!({"text": names(MAX_MENTIONS + 1), "itemId": label})),
    )
    .await;
    assert_refused(&too_many, &["text"], "one person too many");
    let replies = format!("/{}/replies", string(&most, "threadId"));
    let too_many =
        request(&app, &owner, Method::POST, &project, &replies, Some(json!({"text": names(MAX_MENTIONS + 1)}))).await;
    assert_refused(&too_many, &["text"], "one person too many in a reply");
    // Unknown words do not count towards the bound.
    let noisy =
        format!("{} {}", names(MAX_MENTIONS), (0..100).map(|n| format!("@nobody{n}")).collect::<Vec<_>>().join(" "));
    let made = open_thread(&app, &owner, &project, json!({"text": noisy, "itemId": label})).await;
    assert_eq!(made["mentions"].as_array().unwrap().len(), MAX_MENTIONS);
}
