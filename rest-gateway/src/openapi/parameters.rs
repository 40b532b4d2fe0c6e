//! Query parameters whose rules are core-service's, written from `canvas_vocabulary`: the page
//! sizes (the gateway forwards `limit` as sent; core-service applies the default, refuses 0 and
//! clamps above the maximum, and the document says so with the same numbers) and the listing's
//! item-type filter.

use canvas_vocabulary::items::ITEM_TYPES;
use canvas_vocabulary::limits::{PageSize, DELIVERIES_PAGE, INDEX_STATUS_PAGE, ITEMS_PAGE};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::OpenApi;

/// The GET operations with a page-size parameter, and its limits.
const PAGED: &[(&str, PageSize)] = &[
    ("/api/v2/projects/{projectId}/items", ITEMS_PAGE),
    ("/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries", DELIVERIES_PAGE),
    ("/api/v1/memory/index", INDEX_STATUS_PAGE),
];

/// The query parameter `name` of the GET operation at `path`.
fn parameter<'a>(doc: &'a mut OpenApi, path: &str, name: &str) -> &'a mut utoipa::openapi::path::Parameter {
    let operation = doc.paths.paths.get_mut(path).and_then(|item| item.get.as_mut());
    let parameters = operation.and_then(|operation| operation.parameters.as_mut());
    let parameter = parameters.into_iter().flatten().find(|parameter| parameter.name == name);
    parameter.unwrap_or_else(|| panic!("{path} has no parameter {name}"))
}

/// Writes each page-size parameter's schema and description from its limits, and the item types
/// the listing filters by.
pub fn document(doc: &mut OpenApi) {
    let names: Vec<String> = ITEM_TYPES.iter().map(|t| format!("`{}`", t.name)).collect();
    parameter(doc, "/api/v2/projects/{projectId}/items", "type").description =
        Some(format!("Only items of this type ({}); any casing.", names.join(", ")));
    for (path, page) in PAGED {
        let parameter = parameter(doc, path, page.field);
        parameter.schema = Some(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(PageSize::MIN))
                .default(Some(page.default.into()))
                .into(),
        );
        parameter.description = Some(format!("Items per answer: {}.", page.rule()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_parameter_carries_its_limits() {
        let doc = serde_json::to_value(super::super::document()).unwrap();
        for (path, page) in PAGED {
            let parameters = doc["paths"][*path]["get"]["parameters"].as_array().unwrap();
            let limit = parameters.iter().find(|p| p["name"] == page.field).unwrap();
            assert_eq!(limit["schema"]["default"], page.default, "{path}");
            assert_eq!(limit["schema"]["minimum"], PageSize::MIN, "{path}");
            assert!(limit["description"].as_str().unwrap().contains(&page.max.to_string()), "{path}");
        }
    }
}
