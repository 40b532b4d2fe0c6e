//! The import's request body is an archive's bytes (`POST /api/v2/projects/import`,
//! docs/ARCHIVE.md): a binary string under `application/octet-stream`, the binary type client
//! generators read (openapi-python-client skips an operation whose body is only
//! `application/zip`); the gateway takes `application/zip` too, as the description says. utoipa
//! writes a `Vec<u8>` body as an array of numbers, so it is set here; and its 413 is the
//! archive's limit, not the 25 MiB of every other body.

use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, Required, ResponseBuilder};

use crate::routes::archive::IMPORT_PATH;

pub fn document(doc: &mut OpenApi) {
    let Some(import) = doc.paths.paths.get_mut(IMPORT_PATH).and_then(|item| item.post.as_mut()) else { return };
    let binary = || {
        ContentBuilder::new()
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary))),
            ))
            .build()
    };
    import.request_body = Some(
        RequestBodyBuilder::new()
            .description(Some(
                "The archive, as `GET /api/v2/projects/{projectId}/export` wrote it (`Content-Type: application/zip` is \
                 accepted as well).",
            ))
            .required(Some(Required::True))
            .content("application/octet-stream", binary())
            .build(),
    );
    let limit = canvas_vocabulary::limits::archive::MAX_ARCHIVE_BYTES >> 30;
    let too_large = ResponseBuilder::new()
        .description(format!("The archive is over {limit} GiB (docs/ARCHIVE.md, \"Limits\")."))
        .content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        )
        .build();
    import.responses.responses.insert("413".into(), too_large.into());
}
