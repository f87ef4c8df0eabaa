// Loaded with `node --import` into Portkey's gateway by `npm run bench`, and only there. On Node 20 its
// streamed /v1/messages path adds headers to the upstream's fetch Response, whose headers are immutable, and
// answers every streamed request with {"status":"failure"} (Portkey-AI/gateway issues 1389 and 1550). Handing
// it a copy of each response, whose headers can be changed, is the smallest change that lets it stream; the copy
// costs it one Response object per request.
const realFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const res = await realFetch(...args);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) });
};
