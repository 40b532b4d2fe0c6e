// Starts the vendored Swagger UI on this service's OpenAPI document. Everything comes from this
// origin: no CDN, no external validator badge (validatorUrl: null), no inline script.
"use strict";
(function () {
  var root = document.getElementById("api-reference");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-openapi-url"),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    tryItOutEnabled: false,
  });
})();
