//! The error table of docs/ERRORS.md is the contract of the error model: every `canvas.v1.ErrorReason`
//! has a row, and each row's gRPC code and REST status are the ones core-service and
//! rest-gateway actually use. A reason added to the proto, or a mapping changed in code, fails
//! this test until the table says so.

use canvas_proto::v1::ErrorReason;

/// The rows between the table's markers: `(first cell, cells)`.
fn table_rows() -> Vec<Vec<String>> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ERRORS.md")).expect("docs/ERRORS.md");
    let start = doc.find("<!-- error-table:start -->").expect("the table's start marker");
    let end = doc.find("<!-- error-table:end -->").expect("the table's end marker");
    doc[start..end]
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| line.trim_matches('|').split(" | ").map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

#[test]
fn every_reason_has_its_row_and_the_row_matches_the_code() {
    let rows = table_rows();
    let mut listed = Vec::new();
    for row in &rows {
        if row[0].contains("(gateway)") {
            continue;
        }
        let name = row[0].trim_matches('`');
        let reason = ErrorReason::from_str_name(name).unwrap_or_else(|| panic!("{name} is not an ErrorReason"));
        listed.push(reason);
        let code = core_service::grpc::status::code_of(reason);
        let code_name = format!("{code:?}");
        let expected_code = code_name
            .chars()
            .enumerate()
            .flat_map(|(i, c)| if c.is_uppercase() && i > 0 { vec!['_', c] } else { vec![c.to_ascii_uppercase()] })
            .collect::<String>();
        assert_eq!(row[1], format!("`{expected_code}`"), "gRPC code of {name}");
        let status = rest_gateway::error::http_status(reason).as_u16().to_string();
        assert!(
            row[2].starts_with(&status),
            "REST status of {name}: the table says {:?}, the gateway {status}",
            row[2]
        );
    }
    for value in 1..i32::MAX {
        let Ok(reason) = ErrorReason::try_from(value) else { break };
        assert!(listed.contains(&reason), "{} has no row in docs/ERRORS.md's error table", reason.as_str_name());
    }
}
