-- Uploaded file content: the blob key (hex SHA-256) of image, document and svg items.
ALTER TABLE items ADD COLUMN content_key TEXT;
