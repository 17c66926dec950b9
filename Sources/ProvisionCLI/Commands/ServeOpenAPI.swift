/// The OpenAPI 3.1 document of `provision serve`'s API v1, served at `/v1/openapi.json`: the one description of
/// every endpoint and answer (docs/api.md explains them; the serve tests check every answer against it).
enum ServeOpenAPI {
    static let document = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "provision serve",
            "version": "1",
            "description": "Tap verification of NFC jobs (SUN messages, NTAG21x URL MACs) against the jobs' ledgers."
          },
          "paths": {
            "/v1/verify": {
              "get": {
                "operationId": "verifyGet",
                "summary": "Verify one tapped URL given as a query parameter",
                "parameters": [
                  {
                    "name": "url", "in": "query", "required": true,
                    "description": "The tapped URL, percent-encoded; the only parameter.",
                    "schema": {"type": "string", "minLength": 1, "maxLength": 2048}
                  }
                ],
                "responses": {
                  "200": {"$ref": "#/components/responses/Verdict"},
                  "400": {"$ref": "#/components/responses/Error"},
                  "414": {"$ref": "#/components/responses/Refusal"},
                  "429": {"$ref": "#/components/responses/TooMany"},
                  "431": {"$ref": "#/components/responses/Headers"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              },
              "post": {
                "operationId": "verifyPost",
                "summary": "Verify one tapped URL given in a JSON body",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "type": "object", "required": ["url"], "additionalProperties": false,
                        "properties": {"url": {"type": "string", "minLength": 1, "maxLength": 2048}}
                      }
                    }
                  }
                },
                "responses": {
                  "200": {"$ref": "#/components/responses/Verdict"},
                  "400": {"$ref": "#/components/responses/Error"},
                  "413": {"$ref": "#/components/responses/Refusal"},
                  "414": {"$ref": "#/components/responses/Error"},
                  "429": {"$ref": "#/components/responses/TooMany"},
                  "431": {"$ref": "#/components/responses/Headers"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/healthz": {
              "get": {
                "operationId": "health",
                "summary": "Whether every job's ledger answers (keys are loaded before the service listens)",
                "responses": {
                  "200": {"$ref": "#/components/responses/Health"},
                  "503": {"$ref": "#/components/responses/Health"}
                }
              }
            },
            "/metrics": {
              "get": {
                "operationId": "metrics",
                "summary": "Prometheus text format 0.0.4: taps and the line",
                "responses": {
                  "200": {
                    "description": "The metrics.",
                    "content": {"text/plain; version=0.0.4; charset=utf-8": {"schema": {"type": "string"}}}
                  }
                }
              }
            },
            "/v1/openapi.json": {
              "get": {
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                  "200": {"description": "The OpenAPI document.", "content": {"application/json": {"schema": {}}}}
                }
              }
            }
          },
          "components": {
            "schemas": {
              "Verdict": {
                "type": "object",
                "required": ["verdict", "counter", "job", "product"],
                "additionalProperties": false,
                "properties": {
                  "verdict": {
                    "enum": ["valid", "replayed", "invalid", "suspicious"],
                    "description": "valid, replayed (not above the last), suspicious (beyond the window), invalid"
                  },
                  "counter": {
                    "type": ["integer", "null"], "minimum": 0, "maximum": 16777215,
                    "description": "The counter the URL names; null for invalid or without a counter"
                  },
                  "job": {"type": ["string", "null"], "description": "The job whose key made the MAC."},
                  "product": {
                    "type": "object", "additionalProperties": {"type": "string"},
                    "description": "The row fields the job's manifest marks public; empty for invalid."
                  }
                },
                "if": {"properties": {"verdict": {"const": "invalid"}}},
                "then": {
                  "description": "An invalid answer names nothing: no counter, job or product.",
                  "properties": {"counter": {"type": "null"}, "job": {"type": "null"}, "product": {"maxProperties": 0}}
                }
              },
              "Error": {
                "type": "object", "required": ["error"], "additionalProperties": false,
                "properties": {"error": {"type": "string"}}
              }
            },
            "headers": {
              "ProvisionVerdict": {
                "description": "The verdict, for proxies and logs.",
                "schema": {"enum": ["valid", "replayed", "invalid", "suspicious"]}
              },
              "RetryAfter": {"description": "Whole seconds to wait.", "schema": {"type": "integer", "minimum": 1}}
            },
            "responses": {
              "Verdict": {
                "description": "The verdict.",
                "headers": {"Provision-Verdict": {"$ref": "#/components/headers/ProvisionVerdict"}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Verdict"}}}
              },
              "Error": {
                "description": "Malformed request (400), URL in the body over 2048 bytes (414), no ledger (503).",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
              },
              "Refusal": {
                "description": "Refused unread: request target over 2048 bytes (414), body over 4096 bytes (413).",
                "content": {"text/plain; charset=utf-8": {"schema": {"type": "string"}}}
              },
              "Headers": {
                "description": "Refused unread by the HTTP library: request headers over 32 KiB."
              },
              "TooMany": {
                "description": "Too many requests from this client.",
                "headers": {"Retry-After": {"$ref": "#/components/headers/RetryAfter"}},
                "content": {"text/plain; charset=utf-8": {"schema": {"type": "string"}}}
              },
              "Health": {
                "description": "ok, or unhealthy with the reason.",
                "content": {"text/plain; charset=utf-8": {"schema": {"type": "string", "pattern": "^(ok|unhealthy): "}}}
              }
            }
          }
        }
        """#
}
