// Talking to the explorer's API: JSON answers, and Server-Sent Events read with fetch (so that
// a 503 and its Retry-After are seen, and aborting the fetch ends the search on the server).

export async function getJSON(url, options = {}) {
  const response = await fetch(url, options);
  let data;
  try {
    data = await response.json();
  } catch {
    data = {error: `the server answered ${response.status} without JSON`};
  }
  return {ok: response.ok, status: response.status, data,
          retryAfter: Number(response.headers.get("Retry-After")) || null};
}

export async function postJSON(url, body, options = {}) {
  return getJSON(url, {...options, method: "POST", body: JSON.stringify(body),
                       headers: {"Content-Type": "application/json"}});
}

// Calls onEvent(name, data) for every event of the stream at `url` until it ends; returns
// {ok: true} or, when the server refused the request, {ok: false, status, data, retryAfter}.
export async function streamEvents(url, onEvent, signal) {
  const response = await fetch(url, {signal, headers: {Accept: "text/event-stream"}});
  if (!response.ok) {
    let data;
    try { data = await response.json(); } catch { data = {error: `HTTP ${response.status}`}; }
    return {ok: false, status: response.status, data,
            retryAfter: Number(response.headers.get("Retry-After")) || null};
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      onEvent(name, data ? JSON.parse(data) : {});
    }
  }
  return {ok: true};
}

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

export const SVG = "http://www.w3.org/2000/svg";

export function svgElement(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}
