//! The item routes as concrete paths, one operation per item type.
//!
//! The router serves `.../item/{a}/{b}` for three things: create (`/{parent}/{itemType}`),
//! single-property read (`/{itemId}/{property}`) and PATCH (`/{itemType}/{itemId}`). OpenAPI
//! treats templates differing only in their names as the same path, so the create, upload and
//! PATCH operations are written out here per item type, each with that type's body. The
//! handlers are `routes::items::{create, update}` and `routes::files::upload`.

use canvas_vocabulary::items::ITEM_TYPES;

use super::item_schemas::{create_name, operation_name, patch_name, PARENT};
use utoipa::openapi::link::LinkBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, Required, ResponseBuilder};

use crate::bodies::items::WRAPPED_UPDATE;

/// Prefix of every item path.
pub const ITEM: &str = "/api/v2/projects/{projectId}/item";

/// A required path parameter holding a string.
pub fn path_param(name: &str, description: &str, uuid: bool) -> utoipa::openapi::path::Parameter {
    let mut schema = ObjectBuilder::new().schema_type(Type::String);
    if uuid {
        schema = schema.format(Some(utoipa::openapi::SchemaFormat::Custom("uuid".into())));
    }
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(description))
        .schema(Some(schema.build()))
        .build()
}

fn project_param() -> utoipa::openapi::path::Parameter {
    path_param("projectId", "The project.", true)
}

fn parent_param() -> utoipa::openapi::path::Parameter {
    ParameterBuilder::new()
        .name("parent")
        .parameter_in(ParameterIn::Path)
        .required(Required::True)
        .description(Some(format!(
            "Where the item goes: `panel` (the canvas), `inbox`, or a container item's id ({}).",
            canvas_vocabulary::items::containers::RULE
        )))
        .schema(Some(Ref::from_schema_name(PARENT)))
        .build()
}

fn json_body(schema: &str) -> utoipa::openapi::request_body::RequestBody {
    RequestBodyBuilder::new()
        .required(Some(Required::True))
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name(schema))).build())
        .build()
}

fn item_ref_response() -> ResponseBuilder {
    ResponseBuilder::new()
        .description("The item's id.")
        .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ItemRef"))).build())
}

/// What a client can do next with a created item: read, change and delete it (schemathesis's
/// stateful phase follows these).
fn created_item(op_name: &str, upload: bool) -> utoipa::openapi::Response {
    let link = |operation_id: &str| {
        LinkBuilder::new()
            .operation_id(operation_id)
            .parameter("projectId", "$request.path.projectId")
            .parameter("itemId", "$response.body#/ItemId")
    };
    let mut response = item_ref_response()
        .link("GetItem", link("getItem").build())
        .link("GetPosition", link("getItemProperty").parameter("property", "position").build())
        .link("Update", link(&format!("update{op_name}")).build())
        .link("Delete", link("deleteItem").build());
    if upload {
        response = response.link("GetContent", link("getItemContent").build());
    }
    response.build()
}

/// Adds the per-type create, upload and PATCH operations, and the file content read.
pub fn add_paths(doc: &mut OpenApi) {
    for definition in &ITEM_TYPES {
        let item_type = definition.name;
        let upload = definition.creation.from_upload();
        let op_name = operation_name(item_type);
        if let Some(create) = create_name(definition) {
            let operation = OperationBuilder::new()
                .tag("items")
                .operation_id(Some(format!("create{op_name}")))
                .summary(Some(format!("Create a {item_type} item")))
                .description(Some(format!(
                    "`POST /{{parent}}/{item_type}` with the {item_type} properties as JSON (names in any casing)."
                )))
                .parameters(Some([project_param(), parent_param()]))
                .request_body(Some(json_body(&create)))
                .response("200", created_item(&op_name, item_type == "image"))
                .build();
            doc.paths.add_path_operation(format!("{ITEM}/{{parent}}/{item_type}"), vec![HttpMethod::Post], operation);
        }
        if upload {
            let body = RequestBodyBuilder::new()
                .required(Some(Required::True))
                .content(
                    "multipart/form-data",
                    ContentBuilder::new().schema(Some(Ref::from_schema_name("FileUpload"))).build(),
                )
                .build();
            let operation = OperationBuilder::new()
                .tag("items")
                .operation_id(Some(format!("upload{op_name}")))
                .summary(Some(format!("Create a {item_type} item from an uploaded file")))
                .description(Some(upload_description(item_type)))
                .parameters(Some([project_param(), parent_param()]))
                .request_body(Some(body))
                .response("200", created_item(&op_name, true))
                .build();
            doc.paths.add_path_operation(
                format!("{ITEM}/{{parent}}/{item_type}/file"),
                vec![HttpMethod::Post],
                operation,
            );
        }
        let wrapped = if item_type == WRAPPED_UPDATE { " wrapped as `{\"properties\": {...}}`" } else { "" };
        let operation = OperationBuilder::new()
            .tag("items")
            .operation_id(Some(format!("update{op_name}")))
            .summary(Some(format!("Change a {item_type} item")))
            .description(Some(format!(
                "Only the properties to change{wrapped}; `null` resets an optional property to its default."
            )))
            .parameters(Some(
                [project_param(), path_param("itemId", "The item.", true), super::if_match()]
                    .into_iter()
                    .chain(super::write_conditions()),
            ))
            .request_body(Some(json_body(&patch_name(definition))))
            .response("200", item_ref_response().build())
            .build();
        doc.paths.add_path_operation(format!("{ITEM}/{item_type}/{{itemId}}"), vec![HttpMethod::Patch], operation);
    }
    let binary = ObjectBuilder::new().schema_type(Type::String).content_media_type("application/octet-stream").build();
    let content = OperationBuilder::new()
        .tag("items")
        .operation_id(Some("getItemContent"))
        .summary(Some("Download an uploaded file"))
        .description(Some(
            "The stored bytes of an image, document or SVG item with their sniffed content type, as an \
             attachment with `X-Content-Type-Options: nosniff`.",
        ))
        .parameters(Some([project_param(), path_param("itemId", "The item.", true)]))
        .response(
            "200",
            ResponseBuilder::new()
                .description("The file.")
                .content("*/*", ContentBuilder::new().schema(Some(binary)).build())
                .build(),
        )
        .build();
    doc.paths.add_path_operation(format!("{ITEM}/{{itemId}}/content"), vec![HttpMethod::Get], content);
    // DELETE is a handler with `#[utoipa::path]`; its conditional header is the PATCHes' one.
    let delete = doc.paths.paths.get_mut(&format!("{ITEM}/{{itemId}}")).and_then(|item| item.delete.as_mut());
    let parameters = delete.expect("DELETE item is documented").parameters.get_or_insert_with(Vec::new);
    parameters.push(super::if_match());
    parameters.extend(super::write_conditions());
}

fn upload_description(item_type: &str) -> String {
    let formats = match item_type {
        "image" => "JPEG, PNG, GIF or WebP; the size defaults to the pixel size",
        "document" => "PDF, DOCX, PPTX, XLSX, ODT/ODS/ODP, UTF-8 text or Markdown (by the `.md` name)",
        _ => "an SVG, stored sanitised",
    };
    format!(
        "`multipart/form-data` with the part `binary` (the file: {formats}) and optionally `dataobject` (a JSON \
         object as text with further properties). `fileName`, `mimeType` and `fileSize` come from the file."
    )
}
