// The API reference page (/docs): Swagger UI, loaded from the gateway's own copy, draws the
// gateway's /openapi.json. A classic script (Swagger UI's bundles define globals).
(function () {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
    validatorUrl: null, // never send the document to an outside validator
  });
})();
