"use strict";
// The stand-in's local view. Every text from the stand-in goes through textContent (never
// innerHTML), so message content cannot inject markup.

const CONTROL = "/_standin";
const POLL_MS = 1000;
const OPERATOR = "141372217677053952";
const EPHEMERAL = 64;
const LOADING = 128;
const BUTTON = 2;
const TEXT_INPUT = 4;
const LABEL = 18;
const STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };
const CALLBACKS = {
  1: "ponged",
  4: "answered with a message",
  5: "deferred (thinking…)",
  6: "acknowledged",
  7: "updated the message",
  9: "opened a modal",
};
const ANSWER_WINDOW_MS = 3000;

const $ = (id) => document.getElementById(id);
let shown = "";      // what the last render drew, to redraw only on change
let state = null;
const presses = [];  // {id, what, user, at}, newest last
const handledModals = new Set();
let modalFor = null; // the interaction record whose modal is open

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function safeLink(url, text) {
  if (typeof url === "string" && /^https?:\/\//i.test(url)) {
    const a = el("a", "", text);
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    return a;
  }
  return el("span", "", text);
}

// -- the member who presses --------------------------------------------------------------------
function memberId() {
  return $("member").value.trim();
}

function initMember() {
  let saved = null;
  try { saved = localStorage.getItem("standin-member"); } catch (_) { /* private mode */ }
  $("member").value = saved || OPERATOR;
  $("member").addEventListener("input", () => {
    try { localStorage.setItem("standin-member", memberId()); } catch (_) { /* ignore */ }
  });
}

// -- names ---------------------------------------------------------------------------------------
function userName(id) {
  for (const member of (state && state.members) || []) {
    if (member.user.id === id) return member.user.username;
  }
  return "user" + id;
}

function roleName(id) {
  for (const role of (state && state.guild.roles) || []) {
    if (role.id === id) return role.name;
  }
  return "role" + id;
}

function channelName(id) {
  const found = allChannels().find((c) => c.id === id);
  return found ? found.name || id : id;
}

function readable(text) {
  return String(text || "")
    .replace(/<@!?([0-9]+)>/g, (_, id) => "@" + userName(id))
    .replace(/<@&([0-9]+)>/g, (_, id) => "@" + roleName(id))
    .replace(/<#([0-9]+)>/g, (_, id) => "#" + channelName(id));
}

// -- channels --------------------------------------------------------------------------------------
function allChannels() {
  if (!state) return [];
  return [...state.channels, ...state.threads, ...state.dms];
}

function ephemeralIn(channelId) {
  const found = new Map();
  for (const interaction of state.interactions) {
    for (const message of [interaction.original, ...interaction.followups]) {
      if (message && message.channel_id === channelId && message.flags & EPHEMERAL) {
        found.set(message.id, { ...message, visible_to: interaction.user_id });
      }
    }
  }
  return [...found.values()];
}

function messagesIn(channel) {
  const all = [...channel.messages, ...ephemeralIn(channel.id)];
  return all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

function selectedId() {
  const match = /channel=([0-9]+)/.exec(location.hash);
  if (match && allChannels().some((c) => c.id === match[1])) return match[1];
  const busy = allChannels().find((c) => c.messages.length);
  if (!busy) return (allChannels()[0] || {}).id;
  // Keep to it once chosen, even when an earlier channel gets its first message.
  history.replaceState(null, "", "#channel=" + busy.id);
  return busy.id;
}

function channelButton(channel, label, extra) {
  const button = el("button", "channel " + (extra || ""));
  button.type = "button";
  button.dataset.channelId = channel.id;
  button.append(el("span", "name", label), el("span", "count", messagesIn(channel).length || ""));
  if (channel.denied_code) button.title = "writes refused with " + channel.denied_code;
  if (channel.id === selectedId()) button.classList.add("selected");
  button.addEventListener("click", () => { location.hash = "channel=" + channel.id; });
  return button;
}

function renderChannels() {
  const nav = $("channels");
  nav.replaceChildren(el("div", "group", "Channels"));
  const threads = new Map();
  for (const thread of state.threads) {
    if (!threads.has(thread.parent_id)) threads.set(thread.parent_id, []);
    threads.get(thread.parent_id).push(thread);
  }
  for (const channel of state.channels) {
    const forum = channel.type === 15;
    const denied = channel.denied_code ? " denied" : "";
    nav.append(channelButton(channel, (forum ? "▤ " : "# ") + channel.name, denied));
    for (const thread of threads.get(channel.id) || []) {
      nav.append(channelButton(thread, "↳ " + thread.name, "thread"));
    }
  }
  if (state.dms.length) nav.append(el("div", "group", "Direct messages"));
  for (const dm of state.dms) {
    const closed = dm.dms_open ? "" : " (closed)";
    nav.append(channelButton(dm, "@ " + userName(dm.user_id) + closed));
  }
}

// -- messages -------------------------------------------------------------------------------------
function renderEmbed(embed) {
  const box = el("div", "embed");
  if (Number.isInteger(embed.color)) {
    box.style.borderLeftColor = "#" + embed.color.toString(16).padStart(6, "0");
  }
  if (embed.author && embed.author.name) {
    box.append(safeLink(embed.author.url, embed.author.name));
    box.lastChild.classList.add("e-author");
  }
  if (embed.title) {
    const title = el("div", "e-title");
    title.append(safeLink(embed.url, readable(embed.title)));
    box.append(title);
  }
  if (embed.description) box.append(el("div", "e-description", readable(embed.description)));
  if (embed.fields && embed.fields.length) {
    const fields = el("div", "fields");
    for (const field of embed.fields) {
      const item = el("div", field.inline ? "field inline" : "field");
      item.append(el("div", "f-name", readable(field.name)), el("div", "f-value", readable(field.value)));
      fields.append(item);
    }
    box.append(fields);
  }
  for (const kind of ["thumbnail", "image"]) {
    if (embed[kind] && embed[kind].url) {
      const line = el("div", "e-image", kind + ": ");
      line.append(safeLink(embed[kind].url, embed[kind].url));
      box.append(line);
    }
  }
  if (embed.footer && embed.footer.text) box.append(el("div", "e-footer", embed.footer.text));
  return box;
}

function renderComponent(component, message) {
  if (component.type === BUTTON) {
    const style = STYLES[component.style] || "secondary";
    const emoji = component.emoji && component.emoji.name ? component.emoji.name + " " : "";
    const button = el("button", "btn style-" + style, emoji + (component.label || ""));
    button.type = "button";
    if (component.custom_id) button.dataset.customId = component.custom_id;
    button.dataset.messageId = message.id;
    if (component.url) {
      button.title = component.url;
      button.disabled = true;
    } else if (message.flags & EPHEMERAL) {
      button.title = "the stand-in presses buttons on channel messages only";
      button.disabled = true;
    } else if (component.disabled) {
      button.disabled = true;
      button.title = "disabled by the bot";
    } else {
      button.title = "press as the member above (" + component.custom_id + ")";
      button.addEventListener("click", () => press(message, component));
    }
    return button;
  }
  return el("span", "select", component.placeholder || "component type " + component.type);
}

function renderMessage(message) {
  const ephemeral = Boolean(message.flags & EPHEMERAL);
  const box = el("article", "message" + (ephemeral ? " ephemeral" : ""));
  box.dataset.messageId = message.id;
  const head = el("div", "head");
  head.append(el("span", "author", message.author.username));
  if (message.author.bot) head.append(el("span", "tag", "BOT"));
  head.append(el("span", "meta", new Date(message.timestamp).toLocaleTimeString()));
  if (message.edited_timestamp) head.append(el("span", "meta", "(edited)"));
  if (ephemeral) head.append(el("span", "meta", "only visible to @" + userName(message.visible_to)));
  head.append(el("span", "meta", message.id));
  box.append(head);
  if (message.flags & LOADING) box.append(el("div", "thinking", message.author.username + " is thinking…"));
  if (message.content) box.append(el("div", "content", readable(message.content)));
  for (const snapshot of message.message_snapshots || []) {
    const inner = snapshot.message || {};
    box.append(el("div", "meta", "forwarded:"), el("div", "content", readable(inner.content)));
    for (const embed of inner.embeds || []) box.append(renderEmbed(embed));
  }
  for (const embed of message.embeds || []) box.append(renderEmbed(embed));
  for (const row of message.components || []) {
    const line = el("div", "row");
    for (const component of row.components || [row]) line.append(renderComponent(component, message));
    box.append(line);
  }
  return box;
}

function renderMessages() {
  const id = selectedId();
  const channel = allChannels().find((c) => c.id === id);
  const pane = $("messages");
  const atBottom = pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 40;
  const changed = pane.dataset.channelId !== id;
  pane.dataset.channelId = id || "";
  if (!channel) {
    $("title").textContent = "";
    pane.replaceChildren(el("p", "empty", "no channels"));
    return;
  }
  const dm = state.dms.includes(channel);
  $("title").textContent = dm ? "@ " + userName(channel.user_id) : "# " + channel.name;
  const shownMessages = messagesIn(channel);
  pane.replaceChildren(...shownMessages.map(renderMessage));
  if (!shownMessages.length) pane.append(el("p", "empty", "no messages yet"));
  if (changed || atBottom) pane.scrollTop = pane.scrollHeight;
}

// -- presses and modals -----------------------------------------------------------------------------
function setStatus(text, error) {
  $("status").textContent = text;
  $("status").classList.toggle("error", Boolean(error));
}

async function interact(body) {
  const response = await fetch(CONTROL + "/interactions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer = {};
  try { answer = await response.json(); } catch (_) { /* not JSON */ }
  if (!response.ok) throw new Error(answer.message || "HTTP " + response.status);
  return answer;
}

async function press(message, component) {
  const user = memberId();
  if (!/^[0-9]{15,20}$/.test(user)) {
    setStatus("enter a member id (a snowflake) to press as", true);
    return;
  }
  try {
    const answer = await interact({
      type: "component",
      channel_id: message.channel_id,
      message_id: message.id,
      custom_id: component.custom_id,
      user_id: user,
    });
    presses.push({ id: answer.interaction_id, what: "pressed " + (component.label || component.custom_id), user, at: Date.now() });
    const delivered = answer.delivered ? "" : " (the bot is not connected: nobody received it)";
    setStatus("pressed " + (component.label || component.custom_id) + " as " + user + delivered, !answer.delivered);
    refresh();
  } catch (error) {
    setStatus("press refused: " + error.message, true);
  }
}

function record(id) {
  return state ? state.interactions.find((i) => i.id === id) : undefined;
}

function outcome(press) {
  const found = record(press.id);
  if (!found) return "waiting for the stand-in";
  if (found.acknowledged) {
    const followups = found.followups.length ? ", " + found.followups.length + " followup(s)" : "";
    return (CALLBACKS[found.callback_type] || "answered (type " + found.callback_type + ")") + followups;
  }
  return Date.now() - press.at > ANSWER_WINDOW_MS ? "not answered within 3 s" : "waiting for the bot";
}

function renderPresses() {
  const list = $("presses");
  list.replaceChildren(...presses.slice(-20).reverse().map((p) => {
    const item = el("li");
    item.dataset.interactionId = p.id;
    item.append(el("div", "", p.what), el("div", "meta", "as " + userName(p.user) + ": " + outcome(p)));
    return item;
  }));
}

function textInputs(components, label, found) {
  for (const component of components || []) {
    if (component.type === TEXT_INPUT) {
      found.push({ ...component, label: component.label || label || component.custom_id });
    } else if (component.type === LABEL && component.component) {
      textInputs([component.component], component.label, found);
    } else {
      textInputs(component.components, label, found);
    }
  }
  return found;
}

function modalOf(found) {
  const callback = found.responses.find((r) => r.kind === "callback" && r.type === 9);
  return callback ? callback.data : null;
}

function openModal() {
  if (modalFor) return;
  for (const press of presses) {
    const found = record(press.id);
    if (!found || handledModals.has(found.id) || found.callback_type !== 9) continue;
    const modal = modalOf(found);
    if (!modal) continue;
    modalFor = found;
    $("modal-title").textContent = modal.title || modal.custom_id;
    $("modal-who").textContent = "as " + userName(found.user_id) + " (" + found.user_id + ")";
    const fields = $("modal-fields");
    fields.replaceChildren();
    for (const input of textInputs(modal.components, null, [])) {
      const label = el("label", "", input.label);
      const field = el(input.style === 2 ? "textarea" : "input");
      field.name = input.custom_id;
      field.value = input.value || "";
      if (input.placeholder) field.placeholder = input.placeholder;
      if (input.required !== false) field.required = true;
      if (input.min_length) field.minLength = input.min_length;
      if (input.max_length) field.maxLength = input.max_length;
      label.append(field);
      fields.append(label);
    }
    $("modal").hidden = false;
    const first = fields.querySelector("input, textarea");
    if (first) first.focus();
    return;
  }
}

function closeModal() {
  if (modalFor) handledModals.add(modalFor.id);
  modalFor = null;
  $("modal").hidden = true;
}

async function submitModal(event) {
  event.preventDefault();
  const found = modalFor;
  if (!found) return;
  const modal = modalOf(found);
  const values = {};
  for (const field of $("modal-fields").querySelectorAll("input, textarea")) values[field.name] = field.value;
  const body = { type: "modal", channel_id: found.channel_id, custom_id: modal.custom_id, user_id: found.user_id, values };
  if (found.message_id) body.message_id = found.message_id;
  try {
    const answer = await interact(body);
    presses.push({ id: answer.interaction_id, what: "submitted " + (modal.title || modal.custom_id), user: found.user_id, at: Date.now() });
    setStatus("submitted " + (modal.title || modal.custom_id), false);
    closeModal();
    refresh();
  } catch (error) {
    setStatus("submit refused: " + error.message, true);
  }
}

// -- polling ------------------------------------------------------------------------------------------
function render() {
  $("guild").textContent = state.guild.name;
  const connected = Boolean(state.gateway && state.gateway.connected);
  $("gateway").textContent = connected ? "bot connected" : "bot not connected";
  $("gateway").className = "pill " + (connected ? "ok" : "bad");
  $("members").replaceChildren(...state.members.map((m) => {
    const option = el("option");
    option.value = m.user.id;
    option.label = m.user.username;
    return option;
  }));
  renderChannels();
  renderMessages();
  renderPresses();
  openModal();
}

function setLink(ok, detail) {
  $("link").textContent = ok ? "live" : "cannot reach the stand-in" + (detail ? ": " + detail : "");
  $("link").className = "pill " + (ok ? "ok" : "bad");
}

let timer = null;
let polling = false;
let again = false;

async function refresh() {
  if (polling) {
    again = true;
    return;
  }
  polling = true;
  clearTimeout(timer);
  try {
    const response = await fetch(CONTROL + "/state", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    state = await response.json();
    setLink(true);
    const drawn = JSON.stringify([state.guild.name, state.gateway.connected, state.members,
      state.channels, state.threads, state.dms, state.interactions, location.hash]);
    if (drawn !== shown) {
      shown = drawn;
      render();
    } else {
      renderPresses();
    }
  } catch (error) {
    setLink(false, error.message);
  } finally {
    polling = false;
    if (again) {
      again = false;
      refresh();
    } else {
      timer = setTimeout(refresh, POLL_MS);
    }
  }
}

initMember();
$("modal-form").addEventListener("submit", submitModal);
$("modal-cancel").addEventListener("click", closeModal);
window.addEventListener("hashchange", () => { if (state) { shown = ""; render(); } });
refresh();
