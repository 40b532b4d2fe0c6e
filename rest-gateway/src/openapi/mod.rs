//! The OpenAPI 3.1 document of the whole REST surface, generated from the code with `utoipa`,
//! served at `GET /api/openapi.json`, with an interactive reference at `GET /api/docs`.
//!
//! # How it is put together
//! - The handlers carry `#[utoipa::path]` (method, concrete path, parameters, success answer).
//! - [`items`] writes out the generic item routes (`.../item/{a}/{b}`) as concrete paths, one
//!   create, upload and PATCH operation per item type with that type's body.
//! - [`item_schemas`]: the item bodies and reads, generated from core-service's property table
//!   (`canvas_vocabulary`). Every other body is a type of `crate::bodies`, whose request types are
//!   also what the handlers deserialise the bodies with, listed under `components` here.
//!   Requests use the canonical camelCase names (any casing is accepted); responses the default
//!   PascalCase.
//! - [`parameters`]: the query parameters whose rules are core-service's (page sizes, item types).
//! - [`document`] then adds what every operation shares, from one table: security, the problem
//!   answers (400/401/403/404/408/412/413/414/415/429/431/503/504) and the `jsonCasing` parameter.
//!
//! - [`webhook_payloads`]: the top-level `webhooks`, the calls receivers get, from the event catalog.
//! - [`contract`] last rewrites the JSON so generated clients work (request bodies with defaults
//!   inline, named word lists, binary answers); docs/REST-CONTRACT.md says why.
//!
//! tests/schemathesis/run.sh lints this document and checks the running service against it.

pub mod archive_body;
pub mod contract;
pub mod idempotency;
pub mod item_schemas;
pub mod items;
pub mod parameters;
pub mod ui;
pub mod webhook_payloads;

use axum::routing::get;
use axum::Router;
use utoipa::openapi::path::{Operation, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::{ContentBuilder, HeaderBuilder, OpenApi, Ref, Required, ResponseBuilder};
use utoipa::OpenApi as _;

use crate::bodies::{archive, bulk, comments, common, diagrams, knowledge, presence, tags, webhooks};
use crate::state::AppState;

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Canvas service REST API",
        description = "Projects hold items on a map; this interface creates, reads, updates and deletes them, \
            answers questions over a project and manages webhooks. Every call except the public ones needs \
            `Authorization: Bearer <token>` (or `ServiceApiKey <token>`).\n\n\
            **Casing.** Responses use PascalCase names unless `jsonCasing` (camel, snake, kebab) says otherwise; \
            the response schemas here show the default. Request bodies accept any casing of the names shown \
            (camelCase). `Accept: application/msgpack` returns MessagePack with camelCase names.\n\n\
            **Errors** are RFC 9457 `application/problem+json` (`Problem`).",
        license(name = "Apache-2.0", identifier = "Apache-2.0")
    ),
    paths(
        crate::routes::items::get,
        crate::routes::items::get_property,
        crate::routes::items::delete,
        crate::routes::items::list,
        crate::routes::bulk::create_items,
        crate::routes::bulk::create_diagram,
        crate::routes::bulk::arrange_items,
        crate::routes::diagrams::list,
        crate::routes::diagrams::get,
        crate::routes::diagrams::update,
        crate::routes::diagrams::delete,
        crate::routes::diagrams::export,
        crate::routes::archive::export,
        crate::routes::archive::import,
        crate::routes::knowledge::retrieve,
        crate::routes::knowledge::index_status,
        crate::routes::tags::list,
        crate::routes::tags::create,
        crate::routes::tags::get,
        crate::routes::tags::update,
        crate::routes::tags::delete,
        crate::routes::comments::list,
        crate::routes::comments::create,
        crate::routes::comments::get,
        crate::routes::comments::update,
        crate::routes::comments::delete,
        crate::routes::comments::reply,
        crate::routes::comments::update_reply,
        crate::routes::comments::delete_reply,
        crate::routes::webhooks::list,
        crate::routes::webhooks::create,
        crate::routes::webhooks::test,
        crate::routes::webhooks::get,
        crate::routes::webhooks::replace,
        crate::routes::webhooks::delete,
        crate::routes::webhooks::enable,
        crate::routes::webhooks::deliveries,
        crate::routes::webhooks::redeliver,
        crate::routes::webhooks::keys,
        crate::routes::webhook_catalog::event_types,
        crate::routes::webhook_recoveries::recover,
        crate::routes::webhook_recoveries::get,
        crate::map::render::svg,
        crate::map::render::png,
        crate::map::changes::stream_changes,
        crate::map::presence::announce,
        crate::map::presence::stream_presence,
        crate::map::project::get,
        crate::map::page::index,
        crate::map::page::asset,
        crate::routes::health::live,
        crate::routes::health::ready,
        ui::openapi_json,
        ui::page,
        ui::asset,
    ),
    components(schemas(
        common::Problem, common::FieldError, common::Health, common::ProjectView,
        knowledge::RetrieveRequest, knowledge::SearchMode, knowledge::AnswerResponse,
        knowledge::CitationReference, knowledge::IndexStatusPage, knowledge::IndexStatus,
        knowledge::IndexCounts,
        webhooks::WebhookDefinition, webhooks::WebhookRecord, webhooks::WebhookStatus, webhooks::WebhookList,
        webhooks::WebhookTestResult, webhooks::DeliveryList, webhooks::DeliveryAttempt, webhooks::Redelivery,
        webhooks::JwkSet, webhooks::Jwk, webhooks::EventTypeList, webhooks::EventType,
        webhooks::RecoverRequest, webhooks::DeliveryRecovery,
        bulk::BulkRequest, bulk::BulkItem, bulk::BulkResponse, bulk::BulkCreated,
        bulk::DiagramRequest, bulk::DiagramPosition, bulk::DiagramResponse,
        bulk::ArrangeRequest, bulk::ArrangeResponse, bulk::ArrangedItem,
        diagrams::DiagramUpdateRequest, diagrams::DiagramRecord, diagrams::DiagramListed, diagrams::DiagramElement,
        diagrams::DiagramPoint, diagrams::DiagramPage, diagrams::DiagramWriteResponse,
        diagrams::ExportedText,
        presence::PresenceAnnouncement, presence::PresenceCursor, presence::PresenceViewport,
        archive::ImportedProject,
        tags::TagRequest, tags::Tag, tags::TagList, tags::TagDeleted,
        comments::CommentPosition, comments::CommentPoint, comments::ThreadRequest, comments::ThreadChange, comments::ReplyRequest,
        comments::Comment, comments::CommentThread, comments::ThreadPage, comments::CommentsDeleted,
    )),
    tags(
        (name = "items", description = "Items of a project's map."),
        (name = "comments", description = "Comment threads on items and points of the map (beyond the spec)."),
        (name = "projects", description = "A project as one archive file: export and import."),
        (name = "knowledge", description = "Retrieval over a project's content."),
        (name = "webhooks", description = "Signed HTTPS calls on item and member events (Manager or Admin)."),
        (name = "map", description = "The rendered map, the live web map, its change stream and presence."),
        (name = "health", description = "Liveness, readiness and metrics."),
        (name = "documentation", description = "This document and its reference page."),
    )
)]
struct ApiDoc;

/// Paths that need no token.
const PUBLIC: &[&str] = &[
    "/healthz",
    "/readyz",
    "/metrics",
    "/api/openapi.json",
    "/api/docs",
    "/api/docs/assets/{file}",
    "/map/{projectId}",
    "/map/assets/{file}",
    "/api/v2/webhooks/keys",
    "/api/v2/webhooks/event-types",
];

/// Paths whose handler does not read `jsonCasing` (the others answer an unknown value with a 400).
const NO_CASING: &[&str] = &[
    "/healthz",
    "/readyz",
    "/metrics",
    "/api/openapi.json",
    "/api/docs",
    "/api/docs/assets/{file}",
    "/map/{projectId}",
    "/map/assets/{file}",
];

/// The whole document.
pub fn document() -> OpenApi {
    let mut doc = ApiDoc::openapi();
    item_schemas::add(doc.components.get_or_insert_with(Default::default));
    items::add_paths(&mut doc);
    parameters::document(&mut doc);
    doc.paths.add_path_operation("/metrics", vec![utoipa::openapi::HttpMethod::Get], metrics_operation());
    add_shared(&mut doc);
    // Relative to where the document is served: every deployment is its own origin.
    doc.servers = Some(vec![utoipa::openapi::server::ServerBuilder::new()
        .url("/")
        .description(Some("This service: the origin that served this document"))
        .build()]);
    idempotency::document(&mut doc);
    add_webhook_links(&mut doc);
    add_diagram_kinds(&mut doc);
    archive_body::document(&mut doc);
    doc
}

/// The Mermaid kinds the diagram operations read, from `canvas-vocabulary`'s list (the one
/// canvas-diagram's dispatch is tested against), appended to their descriptions.
fn add_diagram_kinds(doc: &mut OpenApi) {
    let kinds = format!("\n\nMermaid kinds: {}.", canvas_vocabulary::limits::diagrams::KINDS_IN_WORDS);
    if let Some(item) = doc.paths.paths.get_mut("/api/v2/projects/{projectId}/diagrams") {
        if let Some(operation) = item.post.as_mut() {
            operation.description.get_or_insert_with(String::new).push_str(&kinds);
        }
    }
}

/// The document as JSON text, after the passes that make generated clients work
/// ([`contract`]). utoipa 5 writes a link's `operationId`, `operationRef` and
/// `requestBody` as `operation_id`, `operation_ref` and `request_body`; they are renamed here.
pub fn to_json(doc: &OpenApi) -> String {
    let mut value = serde_json::to_value(doc).expect("the OpenAPI document serialises");
    if let Some(paths) = value.get_mut("paths").and_then(|p| p.as_object_mut()) {
        let responses = paths
            .values_mut()
            .filter_map(|item| item.as_object_mut())
            .flat_map(|item| item.values_mut())
            .filter_map(|operation| operation.get_mut("responses").and_then(|r| r.as_object_mut()))
            .flat_map(|responses| responses.values_mut());
        for response in responses {
            let Some(links) = response.get_mut("links").and_then(|l| l.as_object_mut()) else { continue };
            for link in links.values_mut().filter_map(|l| l.as_object_mut()) {
                for (from, to) in [
                    ("operation_id", "operationId"),
                    ("operation_ref", "operationRef"),
                    ("request_body", "requestBody"),
                ] {
                    if let Some(v) = link.remove(from) {
                        link.insert(to.into(), v);
                    }
                }
            }
        }
    }
    // Before the client passes, so the payloads' word lists are the document's named ones too.
    webhook_payloads::add(&mut value);
    contract::apply(&mut value);
    serde_json::to_string_pretty(&value).expect("JSON values serialise")
}

/// From a created webhook to what can be done with it (schemathesis's stateful phase follows these).
fn add_webhook_links(doc: &mut OpenApi) {
    use utoipa::openapi::link::LinkBuilder;
    let Some(create) = doc.paths.paths.get_mut("/api/v2/projects/{projectId}/webhooks").and_then(|p| p.post.as_mut())
    else {
        return;
    };
    let Some(utoipa::openapi::RefOr::T(created)) = create.responses.responses.get_mut("200") else {
        return;
    };
    for (name, operation_id) in [
        ("Get", "getWebhook"),
        ("Replace", "replaceWebhook"),
        ("Enable", "enableWebhook"),
        ("Deliveries", "listDeliveries"),
        ("Delete", "deleteWebhook"),
    ] {
        let link = LinkBuilder::new()
            .operation_id(operation_id)
            .parameter("projectId", "$request.path.projectId")
            .parameter("webhookId", "$response.body#/Id")
            .build();
        created.links.insert(name.into(), link.into());
    }
}

fn metrics_operation() -> Operation {
    OperationBuilder::new()
        .tag("health")
        .operation_id(Some("metrics"))
        .summary(Some("Prometheus metrics (text exposition format)"))
        .response(
            "200",
            ResponseBuilder::new()
                .description("The metrics.")
                .content(
                    "text/plain",
                    ContentBuilder::new()
                        .schema(Some(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String)))
                        .build(),
                )
                .build(),
        )
        .build()
}

/// The problem answers, by status.
const PROBLEMS: &[(&str, &str, &str)] = &[
    ("400", "BadRequest", "Invalid request: validation failed (each field in `Errors`), or an unknown `jsonCasing`."),
    ("401", "Unauthorized", "Missing, invalid or revoked token, or a token of another environment."),
    ("403", "Forbidden", "No access to the project, or too weak a role."),
    ("404", "NotFound", "Unknown project, item or webhook."),
    ("408", "RequestTimeout", "The request body did not arrive within the gateway's body timeout (`--body-timeout-secs`, 60 s by default)."),
    ("412", "PreconditionFailed", "A condition failed, in RFC 9110's order: `If-Match` names no version the resource has now (or only weak tags, which never match), it changed after `If-Unmodified-Since`, or (on a write) `If-None-Match` names it; `currentVersion` holds the version it has."),
    ("413", "PayloadTooLarge", "The request body is over 25 MiB."),
    ("414", "UriTooLong", "The request URI is over the gateway's limit (`--max-uri-bytes`, 8 KiB by default); answered at the edge, before any route."),
    ("415", "UnsupportedMediaType", "The request body's `Content-Type` is not what the operation reads: `application/json` (a `charset=utf-8` parameter and any `+json` type accepted), or `multipart/form-data` for uploads. A missing `Content-Type` is refused too; `Accept-Post` / `Accept-Patch` name the type."),
    ("422", "Unrasterisable", "The map has geometry too far outside the image for the PNG rasteriser; draw a smaller region or use `render.svg`."),
    ("429", "TooManyRequests", "The caller's rate limit is used up (per API token, OAuth grant or session; per client address for failing credentials): wait `Retry-After` seconds. `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) name the budget and its state."),
    ("431", "HeadersTooLarge", "The request's header fields are over the gateway's limits (`--max-header-bytes`, 16 KiB, and `--max-headers`, 100, by default); answered at the edge, before any route."),
    ("503", "ServiceUnavailable", "A dependency is unavailable (named in `dependency`), or a rate limit applies; see `Retry-After`."),
    ("504", "GatewayTimeout", "core-service did not answer within the gateway's deadline (`--core-timeout-secs`, 30 s by default)."),
];

/// Security, problem answers and `jsonCasing` for every operation, by the tables above.
fn add_shared(doc: &mut OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    components.security_schemes.insert(
        "bearer".into(),
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .bearer_format("svc_tk_…")
                .description(Some("`Authorization: Bearer <API token>`"))
                .build(),
        ),
    );
    components.security_schemes.insert(
        "serviceApiKey".into(),
        SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
            "Authorization",
            "`Authorization: ServiceApiKey <API token>` (the scheme word is case-insensitive)",
        ))),
    );
    for (status, name, description) in PROBLEMS {
        let mut response = ResponseBuilder::new().description(*description).content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        );
        if *status == "503" || *status == "429" {
            let header = HeaderBuilder::new()
                .schema(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::Integer))
                .description(Some("Seconds to wait before trying again."))
                .build();
            response = response.header("Retry-After", header);
        }
        if *status == "429" {
            for (field, meaning) in [
                ("RateLimit-Policy", "The budget: `\"credential\";q=<calls>;w=<seconds>` (or `\"anonymous\"`)."),
                ("RateLimit", "Its state: `\"credential\";r=<remaining>;t=<seconds until more>`."),
            ] {
                let header = HeaderBuilder::new()
                    .schema(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String))
                    .description(Some(meaning))
                    .build();
                response = response.header(field, header);
            }
        }
        components.responses.insert((*name).into(), response.build().into());
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        let public = PUBLIC.contains(&path.as_str());
        let casing = !NO_CASING.contains(&path.as_str());
        let operations = [
            (&mut item.get, false),
            (&mut item.put, true),
            (&mut item.post, true),
            (&mut item.delete, true),
            (&mut item.patch, true),
        ];
        for (operation, writes) in operations.into_iter().filter_map(|(op, writes)| op.as_mut().map(|op| (op, writes)))
        {
            // The edge limits apply to every request, public ones included.
            let mut statuses: Vec<&str> = vec!["414", "431"];
            if public {
                operation.security = Some(vec![SecurityRequirement::default()]);
            } else {
                operation.security = Some(vec![
                    SecurityRequirement::new("bearer", [""; 0]),
                    SecurityRequirement::new("serviceApiKey", [""; 0]),
                ]);
                statuses.extend(["400", "401", "403", "404", "429", "503", "504"]);
                if writes {
                    statuses.push("409");
                }
            }
            if casing {
                statuses.extend(["400", "503"]);
                operation.parameters.get_or_insert_with(Vec::new).push(json_casing());
            }
            if operation.request_body.is_some() {
                statuses.extend(["408", "413", "415"]);
            }
            let parameters = operation.parameters.iter().flatten();
            if parameters.into_iter().any(|parameter| parameter.name == IF_MATCH) {
                statuses.push("412");
            }
            if path.ends_with("/render.png") {
                statuses.push("422");
            }
            for (status, name, _) in PROBLEMS {
                if statuses.contains(status) && !operation.responses.responses.contains_key(*status) {
                    operation.responses.responses.insert((*status).into(), Ref::from_response_name(*name).into());
                }
            }
        }
    }
}

/// A write's conditions after `If-Match` (RFC 9110 13.2.2, evaluated by core-service in order).
pub fn write_conditions() -> [utoipa::openapi::path::Parameter; 2] {
    let header = |name: &str, description: &str| {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .schema(Some(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String)))
            .description(Some(description))
            .build()
    };
    [
        header(
            "If-None-Match",
            "Apply only if the current version is none of these ETags (weak comparison) or, with `*`, never \
             (the resource exists): else 412. A value that is no ETag list is a 400.",
        ),
        header(
            "If-Unmodified-Since",
            "An HTTP-date: apply only if not changed after it (whole seconds, as `Last-Modified`), else 412. \
             Ignored with `If-Match` (RFC 9110 13.2.2) or when it is no HTTP-date.",
        ),
    ]
}

/// The values of `jsonCasing`.
pub const JSON_CASINGS: &[&str] = &["default", "pascal", "camel", "snake", "kebab"];

/// The conditional-request header of item PATCH and DELETE.
pub const IF_MATCH: &str = "If-Match";

/// The optional `If-Match` header: the change applies only to the version named.
pub fn if_match() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name(IF_MATCH)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .schema(Some(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String)))
        .description(Some(
            "Apply only if the item still has one of these versions: its `ETag` as GET answers it (`\"7\"`), \
             a list of them (`\"6\", \"7\"`), or `*` for any. Compared strongly (RFC 9110): a weak tag \
             (`W/\"7\"`) never matches. On a mismatch the answer is 412 with `currentVersion`; without the \
             header writers take turns and the last one wins.",
        ))
        .build()
}

/// The `jsonCasing` query parameter.
fn json_casing() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name("jsonCasing")
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(
            "Property-name casing of JSON answers, case-insensitive: `default` and `pascal` (PascalCase, the \
             default), `camel`, `snake`, `kebab`. Another value is a 400. The schemas show PascalCase.",
        ))
        .schema(Some(common::one_of(JSON_CASINGS)))
        .build()
}

/// `GET /api/openapi.json`, `GET /api/docs` and its assets; no token needed.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/openapi.json", get(ui::openapi_json))
        .route("/api/docs", get(ui::page))
        .route("/api/docs/assets/{file}", get(ui::asset))
}
