// A local OpenID Connect provider standing in for huggingface.co in the Space-mode browser tests.
//
//   node provider.mjs PORT      (prints "ready http://127.0.0.1:PORT" once it serves)
//
// oauth2-mock-server issues real RS256-signed tokens and serves discovery, JWKS, authorize and
// token. In front of its /authorize this adds a sign-in page, as the Hub shows one: the browser
// types a user name (and, for the expiry test, the session's lifetime in seconds); the ID token
// then carries the claims Gradio reads (preferred_username, name, profile, picture) for that user.
import http from "node:http";
import { OAuth2Server } from "oauth2-mock-server";

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const server = new OAuth2Server();
await server.issuer.keys.generate("RS256");
server.issuer.url = base;
const byCode = new Map(); // authorization code -> { user, ttl }

server.service.on("beforeAuthorizeRedirect", (redirect, req) => {
  const query = new URL(req.url, base).searchParams;
  byCode.set(redirect.url.searchParams.get("code"), {
    user: query.get("login_as"),
    ttl: Number(query.get("ttl") || 3600),
  });
});
server.service.on("beforeTokenSigning", (token, req) => {
  const who = byCode.get(req.body.code);
  if (!who) return;
  Object.assign(token.payload, {
    sub: `id-${who.user}`,
    preferred_username: who.user,
    name: `${who.user} (test)`,
    profile: `https://huggingface.co/${who.user}`,
    // A picture that needs no network (the Hub's avatars are not reachable from the tests)
    picture: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'%3E%3Crect width='1' height='1' fill='%2310b981'/%3E%3C/svg%3E",
  });
});
server.service.on("beforeResponse", (response, req) => {
  const who = byCode.get(req.body.code);
  if (!who) return;
  response.body.expires_in = who.ttl; // Gradio keeps the session until now + expires_in
  byCode.delete(req.body.code);
});

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function signInPage(url) {
  const hidden = [...url.searchParams]
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join("");
  return `<!doctype html><title>Sign in (test provider)</title>
<form method="get" action="/authorize">${hidden}
<label>User name <input name="login_as" required></label>
<label>Session seconds <input name="ttl" value="3600"></label>
<button type="submit">Sign in</button></form>`;
}

const handler = server.service.requestHandler;
http
  .createServer((req, res) => {
    const url = new URL(req.url, base);
    if (url.pathname === "/authorize" && !url.searchParams.get("login_as")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(signInPage(url));
      return;
    }
    handler(req, res);
  })
  .listen(port, "127.0.0.1", () => console.log(`ready ${base}`));
