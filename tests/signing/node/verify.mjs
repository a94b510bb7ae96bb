// Verifies Web Bot Auth requests with Cloudflare's published packages: http-message-sig (RFC 9421,
// with the `key` component parameter the dictionary form of Signature-Agent needs) and
// web-bot-auth (its tag, its JWK thumbprint). Reads {"directory": JWKS, "agent": URL, "now": seconds,
// "requests": [{"method", "url", "headers"}]} on stdin; prints one verdict per request as JSON lines.
import { verifySignature, webcrypto } from "http-message-sig";
import { parseDictionary } from "structured-headers";
import { HTTP_MESSAGE_SIGNATURE_TAG, helpers, jwkToKeyID } from "web-bot-auth";

const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (chunk) => (data += chunk));
  process.stdin.on("end", () => resolve(data));
}));

const keys = new Map();
for (const jwk of input.directory.keys) {
  const thumbprint = await jwkToKeyID(jwk, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
  if (jwk.kid !== undefined && jwk.kid !== thumbprint) throw new Error(`kid ${jwk.kid} is not the thumbprint ${thumbprint}`);
  keys.set(thumbprint, await crypto.subtle.importKey("jwk", { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: "Ed25519" }, true, ["verify"]));
}

async function verdict(spec) {
  const request = new Request(spec.url, { method: spec.method, headers: spec.headers });
  const label = [...parseDictionary(request.headers.get("signature-input") ?? "").keys()][0];
  const agent = parseDictionary(request.headers.get("signature-agent") ?? "").get(label);
  if (agent === undefined) return `invalid: no Signature-Agent member for ${label}`;
  if (agent[0] !== input.agent) return `invalid: Signature-Agent ${agent[0]} is not ${input.agent}`;
  const result = await verifySignature(request, {
    label,
    policy: {
      algorithms: ["ed25519"],
      now: input.now,
      requiredComponents: ["@authority", { name: "signature-agent", parameters: { key: label } }],
      requiredParameters: ["created", "expires", "keyid", "tag"],
    },
    resolveVerifier: async (candidate) => {
      if (candidate.parameters.tag !== HTTP_MESSAGE_SIGNATURE_TAG) throw new Error(`tag is not ${HTTP_MESSAGE_SIGNATURE_TAG}`);
      const key = keys.get(candidate.parameters.keyid);
      if (key === undefined) throw new Error(`unknown keyid ${candidate.parameters.keyid}`);
      return webcrypto.verifier(key);
    },
  });
  return `verified keyid=${result.parameters.keyid}`;
}

for (const spec of input.requests) {
  let line;
  try {
    line = await verdict(spec);
  } catch (error) {
    line = `invalid: ${error.message}${error.cause ? ` (${error.cause.message})` : ""}`;
  }
  process.stdout.write(JSON.stringify(line) + "\n");
}
