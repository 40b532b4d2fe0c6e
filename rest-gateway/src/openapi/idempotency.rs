//! `Idempotency-Key` on every creating POST (draft-ietf-httpapi-idempotency-key-header): the
//! header parameter, the `Idempotent-Replayed` header of a replayed answer, and the 409 (the first
//! request still running) and 422 (the key used for another request) answers.

use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::{
    ContentBuilder, HeaderBuilder, ObjectBuilder, OpenApi, Ref, RefOr, Required, ResponseBuilder, Type,
};

use crate::state::{IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED};

/// The POST paths that create, besides the per-type item creates and uploads under
/// `.../item/{parent}/`.
const CREATING: [&str; 5] = [
    "/api/v2/projects/{projectId}/items/bulk",
    "/api/v2/projects/{projectId}/items/arrange",
    "/api/v2/projects/{projectId}/diagrams",
    "/api/v2/projects/{projectId}/webhooks",
    "/api/v2/projects/{projectId}/webhooks/{webhookId}/recover",
];

const ITEM_CREATE_PREFIX: &str = "/api/v2/projects/{projectId}/item/{parent}/";

/// Whether the POST at `path` takes an `Idempotency-Key`.
pub fn creates(path: &str) -> bool {
    CREATING.contains(&path) || path.starts_with(ITEM_CREATE_PREFIX)
}

/// The optional `Idempotency-Key` header.
pub fn key_parameter() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name(IDEMPOTENCY_KEY)
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .schema(Some(ObjectBuilder::new().schema_type(Type::String).min_length(Some(1)).max_length(Some(255))))
        .description(Some(
            "Makes a retry safe: 1 to 255 printable ASCII characters (a UUID, say), bare or as a quoted string. \
             The same key with the same request within 24 hours answers the first request's answer again \
             (`Idempotent-Replayed: true`) without creating anything; with another body, endpoint or project it \
             is a 422. A retry while the first request still runs waits for it, then replays its answer, or is \
             a 409 if it has not finished by the deadline. Keys are per user; only successful answers are kept.",
        ))
        .build()
}

/// Adds the header, the replay marker and the 409/422 answers to every creating POST.
pub fn document(doc: &mut OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    for (name, description) in [
        (
            "IdempotencyKeyInUse",
            "A request with this `Idempotency-Key` is still in progress (reason `IDEMPOTENCY_KEY_IN_USE`): \
             retry later to get its answer; or the write lost to a concurrent one (reason `CONFLICT`).",
        ),
        (
            "IdempotencyKeyReused",
            "This `Idempotency-Key` was used for another request (another body, endpoint or project) within 24 \
             hours (reason `IDEMPOTENCY_KEY_REUSED`); nothing was done.",
        ),
    ] {
        let response = ResponseBuilder::new().description(description).content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        );
        components.responses.insert(name.into(), response.build().into());
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        if let Some(operation) = item.post.as_mut().filter(|_| creates(path)) {
            add(operation);
        }
    }
}

fn add(operation: &mut Operation) {
    operation.parameters.get_or_insert_with(Vec::new).push(key_parameter());
    let responses = &mut operation.responses.responses;
    responses.insert("409".into(), Ref::from_response_name("IdempotencyKeyInUse").into());
    responses.insert("422".into(), Ref::from_response_name("IdempotencyKeyReused").into());
    if let Some(RefOr::T(created)) = responses.get_mut("200") {
        let header = HeaderBuilder::new()
            .schema(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["true"])))
            .description(Some("Present on the replayed answer of a retried request (`Idempotency-Key`)."))
            .build();
        created.headers.insert(IDEMPOTENT_REPLAYED.into(), header);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_creating_post_takes_the_key_and_documents_its_answers() {
        let doc = super::super::document();
        let mut creating = 0;
        for (path, item) in &doc.paths.paths {
            let Some(post) = item.post.as_ref() else { continue };
            let has_key = post.parameters.iter().flatten().any(|p| p.name == IDEMPOTENCY_KEY);
            assert_eq!(has_key, creates(path), "{path}");
            if has_key {
                creating += 1;
                assert!(post.responses.responses.contains_key("409"), "{path}");
                assert!(post.responses.responses.contains_key("422"), "{path}");
            }
        }
        // Item creates and uploads of every type, bulk, arrange, diagrams and webhooks.
        assert!(creating > CREATING.len() + 5, "{creating}");
        assert!(!creates("/api/v2/projects/{projectId}/webhooks/test"));
    }
}
