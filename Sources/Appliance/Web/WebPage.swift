/// The setup page: plain HTML, CSS and JavaScript shipped inside the binary (no build step, no CDN), so it
/// works offline on a phone. It reads /api/status once, then follows /api/events (Server-Sent Events).
enum WebPage {
    static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Nodwire</title>
    <link rel="stylesheet" href="/app.css">
    </head>
    <body>
    <header><h1>Nodwire</h1><span id="state" class="badge">connecting…</span></header>
    <main>
    <section id="status-box"><h2>Status</h2>
    <dl id="status">
    <dt>Frames a second</dt><dd id="fps">–</dd>
    <dt>CPU</dt><dd id="cpu">–</dd>
    <dt>Budget</dt><dd id="budget">–</dd>
    <dt>Camera</dt><dd id="camera">–</dd>
    <dt>Face</dt><dd id="face">–</dd>
    <dt>Calibration</dt><dd id="calibration">–</dd>
    <dt>Battery</dt><dd id="battery">–</dd>
    <dt>Temperature</dt><dd id="temperature">–</dd>
    </dl></section>
    <section><h2>Camera</h2>
    <canvas id="picture" width="400" height="300" aria-label="the camera's picture with the face box and landmarks"></canvas>
    <p class="note" id="picture-note">What Nodwire sees, a few times a second, with the face box, the landmarks and the head pointer.</p>
    </section>
    <section><h2>Where the head is</h2>
    <canvas id="plot" width="300" height="300" aria-label="yaw and pitch against the idle zone and the thresholds"></canvas>
    <p class="note">Degrees from the resting pose: inner ellipse the idle zone, outer box the thresholds of a look, dotted lines where a head held for a while (<span id="held-for">1</span> s) is looking too.</p>
    <details id="tune"><summary>Adjust the zones by hand</summary>
    <form id="tune-form"><label>Look left/right beyond <input name="gestures.zones.threshold_yaw" type="number" step="0.5" min="1" max="60">°</label>
    <label>Look up/down beyond <input name="gestures.zones.threshold_pitch" type="number" step="0.5" min="1" max="60">°</label>
    <label>At rest within yaw <input name="gestures.zones.idle_yaw" type="number" step="0.5" min="0.5" max="60">°</label>
    <label>At rest within pitch <input name="gestures.zones.idle_pitch" type="number" step="0.5" min="0.5" max="60">°</label>
    <label>Held up/down, a look from <input name="gestures.zones.held_share_pitch" type="number" step="0.05" min="0.3" max="1"> of its threshold (1: off)</label>
    <button>Save and use</button></form><p id="tune-reply" class="note"></p></details>
    </section>
    <section class="wide"><h2>The last 20 seconds</h2>
    <canvas id="strip" width="640" height="200" aria-label="yaw and pitch over the last 20 seconds"></canvas>
    <p class="note"><span class="yaw">yaw</span> and <span class="pitch">pitch</span> with the thresholds (dashed) and where a held look starts (dotted); events marked.</p>
    </section>
    <section class="wide" id="fit-box"><h2>Fit it to the person</h2>
    <p class="note" id="fit-intro">A few guided minutes: look straight, turn left, right, up and down as far as is comfortable, nod "yes" a few times, shake "no" a few times, then talk for 20 seconds. Nodwire then proposes this person's zones and nod and shake sizes and shows how the session scores with them. Nothing changes until you press Save.</p>
    <p><label>Pace <select id="fit-pace"><option value="1">normal</option><option value="1.5">slow (more time for each step)</option><option value="0.5">quick</option></select></label>
    <label><input id="fit-keep" type="checkbox"> keep the session as a clip</label>
    <button id="fit-start">Start</button> <button id="fit-cancel" hidden>Stop</button></p>
    <div id="fit-run" hidden><p id="fit-prompt" class="prompt"></p><progress id="fit-progress" max="1" value="0"></progress> <span id="fit-left"></span></div>
    <div id="fit-result" hidden><p id="fit-score"></p><table id="fit-changes"><thead><tr><th>Setting</th><th>Now</th><th>Proposed</th></tr></thead><tbody></tbody></table>
    <ul id="fit-notes" class="note"></ul><p><button id="fit-save">Save and use</button> <button id="fit-discard">Discard</button></p></div>
    <p id="fit-reply" class="note"></p>
    </section>
    <section><h2>Outputs</h2><ul id="outputs"></ul>
    <form id="token-form"><label>Token <input id="token" type="password" autocomplete="current-password"></label> <button>Use</button></form>
    <p id="output-reply" class="note"></p></section>
    <section class="wide"><h2>Events</h2><ol id="events" reversed></ol></section>
    </main>
    <script src="/app.js"></script>
    </body>
    </html>
    """

    static let style = """
    body { font: 16px/1.4 system-ui, sans-serif; margin: 0; background: #f6f6f4; color: #222; }
    header { display: flex; align-items: center; gap: 1em; padding: .5em 1em; background: #263238; color: #fff; }
    h1 { font-size: 1.3em; margin: 0; } h2 { font-size: 1.05em; margin: 0 0 .5em; }
    main { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1em; padding: 1em; }
    section { background: #fff; border-radius: 8px; padding: .8em; box-shadow: 0 1px 3px #0002; }
    section.wide { grid-column: 1 / -1; }
    canvas { width: 100%; max-width: 100%; height: auto; background: #fcfcfc; border: 1px solid #ddd; }
    dl { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; margin: 0; } dt { color: #555; } dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
    .badge { padding: .1em .6em; border-radius: 1em; background: #607d8b; }
    .badge.running { background: #2e7d32; } .badge.paused, .badge.no_frames, .badge.offline { background: #c62828; }
    #outputs { list-style: none; padding: 0; } #outputs li { display: flex; align-items: center; gap: .6em; margin: .3em 0; }
    .lamp { width: 1em; height: 1em; border-radius: 50%; background: #bbb; display: inline-block; } .lamp.on { background: #43a047; }
    button { font: inherit; padding: .3em .9em; }
    #events .unheard { color: #757575; }
    #events { max-height: 16em; overflow: auto; font-family: ui-monospace, monospace; font-size: .85em; padding-left: 3em; }
    .note { color: #666; font-size: .85em; } .yaw { color: #1565c0; } .pitch { color: #d84315; }
    .prompt { font-size: 1.4em; font-weight: 600; margin: .3em 0; } progress { width: 60%; }
    #fit-changes { border-collapse: collapse; } #fit-changes td, #fit-changes th { padding: .15em .6em; text-align: left; border-bottom: 1px solid #eee; }
    #fit-changes tr.changed td { font-weight: 600; }
    #tune-form label { display: block; margin: .2em 0; } #tune-form input { width: 5em; }
    """

    static let script = """
    'use strict';
    const $ = id => document.getElementById(id);
    let status = null, token = '';
    const samples = [], marks = [];   // {t, yaw, pitch} relative to neutral; {t, label}
    let latest = null;                 // the newest pose message

    // The token comes once in the address (#token=…, which is never sent to the server) or from the form.
    function useToken(t) {
      token = t || '';
      if (token) { localStorage.setItem('nodwire_token', token); document.cookie = 'nodwire_token=' + encodeURIComponent(token) + '; SameSite=Strict; path=/'; }
    }
    const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
    if (fromHash) { useToken(fromHash); history.replaceState(null, '', location.pathname); } else useToken(localStorage.getItem('nodwire_token'));
    $('token-form').addEventListener('submit', e => { e.preventDefault(); useToken($('token').value); $('token').value = ''; start(); });

    function text(id, v) { $(id).textContent = v; }
    function showStatus(s) {
      status = s;
      const b = $('state'); b.textContent = s.state; b.className = 'badge ' + s.state;
      text('fps', s.fps); text('cpu', s.cpu_percent + ' %');
      text('budget', s.budget_percent == null ? '–' : s.budget_percent + ' % of a core' + (s.mode ? ' (' + s.mode + ')' : ''));
      text('camera', s.camera === 'ok' ? s.source : 'lost: ' + (s.camera_problem || ''));
      text('face', s.face_present ? 'present' : 'no face');
      text('held-for', s.zones.held_for);
      text('calibration', s.calibrated ? 'calibrated' : s.calibrating ? 'calibrating…' : '–');
      text('battery', s.battery_percent == null ? 'mains' : s.battery_percent + ' %');
      text('temperature', s.celsius == null ? '–' : s.celsius + ' °C');
      const ul = $('outputs'); ul.textContent = '';
      if (!s.outputs.length) { ul.textContent = 'No outputs in the config.'; }
      for (const o of s.outputs) {
        const li = document.createElement('li');
        const lamp = document.createElement('span'); lamp.className = 'lamp' + (o.value ? ' on' : ''); lamp.title = o.value ? 'on' : 'off';
        li.append(lamp, ' ' + o.name + ' ');
        if (o.pulsable) { const btn = document.createElement('button'); btn.textContent = 'Pulse'; btn.onclick = () => pulse(o.name); li.append(btn); }
        ul.append(li);
      }
      $('token-form').hidden = !s.token_required;
      // The hand-tuning form shows the zones in use, unless the person is editing it.
      if (!$('tune-form').contains(document.activeElement))
        for (const k of ['threshold_yaw', 'threshold_pitch', 'idle_yaw', 'idle_pitch', 'held_share_pitch']) $('tune-form').elements['gestures.zones.' + k].value = s.zones[k];
    }

    async function pulse(name) {
      const headers = token ? { 'Authorization': 'Bearer ' + token } : {};
      const r = await fetch('/api/outputs/' + encodeURIComponent(name) + '/pulse', { method: 'POST', headers });
      const body = await r.json().catch(() => ({ message: r.statusText }));
      text('output-reply', (r.ok ? '' : r.status + ': ') + body.message);
    }

    function addEvent(e) {
      if (e.type === 'move') return;
      const li = document.createElement('li');
      li.textContent = e.time.toFixed(2) + ' s  ' + (e.type === 'unheard' ? e.why : e.type + (e.direction ? ' ' + e.direction : '') + (e.reason ? ' (' + e.reason + ')' : ''));
      if (e.type === 'unheard') {
        // A swing not heard, and why: shaded over the swing on the strip, greyed in the list.
        li.className = 'unheard';
        marks.push({ t: e.end, from: e.start, label: e.not === 'nod' ? 'not a yes' : 'not a no', unheard: true });
      }
      const ol = $('events'); ol.prepend(li); while (ol.children.length > 200) ol.lastChild.remove();
      if (['look_start', 'look', 'nod', 'shake', 'face_found', 'face_lost', 'calibrated'].includes(e.type))
        marks.push({ t: e.time, label: e.type.replace('look_start', 'look') + (e.direction ? ' ' + e.direction : '') });
    }

    function addPose(p) {
      latest = p;
      if (!p.pose) return;
      const n = p.neutral || { yaw: 0, pitch: 0 };
      samples.push({ t: p.time, yaw: p.pose.yaw - n.yaw, pitch: p.pose.pitch - n.pitch });
      const cut = p.time - 20;
      while (samples.length && samples[0].t < cut) samples.shift();
      while (marks.length && marks[0].t < cut) marks.shift();
    }

    function zones() { return status ? status.zones : { idle_yaw: 5, idle_pitch: 4, threshold_yaw: 12, threshold_pitch: 10, held_share_yaw: 1, held_share_pitch: 1, held_for: 1 }; }

    // Where a held look starts on each axis (`gestures.zones.held_share_*` of the threshold): none where it is off (1).
    function heldLines(z) {
      const lines = [];
      if (z.held_share_yaw < 1) lines.push(['yaw', z.held_share_yaw * z.threshold_yaw]);
      if (z.held_share_pitch < 1) lines.push(['pitch', z.held_share_pitch * z.threshold_pitch]);
      return lines;
    }

    function drawPlot() {
      const c = $('plot'), g = c.getContext('2d'), w = c.width, h = c.height, z = zones();
      const range = Math.max(z.threshold_yaw, z.threshold_pitch) * 2, s = w / 2 / range;
      g.clearRect(0, 0, w, h);
      g.strokeStyle = '#ccc'; g.beginPath(); g.moveTo(w / 2, 0); g.lineTo(w / 2, h); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
      g.fillStyle = '#e8f5e9'; g.beginPath(); g.ellipse(w / 2, h / 2, z.idle_yaw * s, z.idle_pitch * s, 0, 0, 2 * Math.PI); g.fill();
      g.strokeStyle = '#c62828'; g.setLineDash([6, 4]);
      g.strokeRect(w / 2 - z.threshold_yaw * s, h / 2 - z.threshold_pitch * s, 2 * z.threshold_yaw * s, 2 * z.threshold_pitch * s);
      // A held look: lines across the threshold box at the held share (up and down, or left and right).
      g.strokeStyle = '#ef6c00'; g.lineWidth = 2; g.setLineDash([2, 3]); g.beginPath();
      for (const [axis, v] of heldLines(z)) for (const sign of [1, -1]) {
        if (axis === 'pitch') { g.moveTo(w / 2 - z.threshold_yaw * s, h / 2 - sign * v * s); g.lineTo(w / 2 + z.threshold_yaw * s, h / 2 - sign * v * s); }
        else { g.moveTo(w / 2 + sign * v * s, h / 2 - z.threshold_pitch * s); g.lineTo(w / 2 + sign * v * s, h / 2 + z.threshold_pitch * s); }
      }
      g.stroke(); g.lineWidth = 1; g.setLineDash([]);
      g.fillStyle = '#555'; g.font = '12px sans-serif'; g.fillText('left', 4, h / 2 - 4); g.fillText('right', w - 32, h / 2 - 4); g.fillText('up', w / 2 + 4, 12); g.fillText('down', w / 2 + 4, h - 4);
      const last = samples[samples.length - 1];
      if (latest && latest.pose && last) {
        // The person's right is on the right of the plot (as they see a mirror); up is up.
        const x = w / 2 + Math.max(-range, Math.min(range, last.yaw)) * s, y = h / 2 - Math.max(-range, Math.min(range, last.pitch)) * s;
        g.fillStyle = '#1565c0'; g.beginPath(); g.arc(x, y, 7, 0, 2 * Math.PI); g.fill();
      } else { g.fillStyle = '#c62828'; g.font = '16px sans-serif'; g.fillText('no face', w / 2 - 28, h / 2 + 30); }
    }

    function drawStrip() {
      const c = $('strip'), g = c.getContext('2d'), w = c.width, h = c.height, z = zones();
      const range = Math.max(z.threshold_yaw, z.threshold_pitch) * 2, end = latest ? latest.time : 0;
      const X = t => w - (end - t) / 20 * w, Y = v => h / 2 - Math.max(-range, Math.min(range, v)) / range * (h / 2 - 4);
      g.clearRect(0, 0, w, h);
      g.strokeStyle = '#ccc'; g.beginPath(); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
      g.setLineDash([6, 4]);
      for (const [v, col] of [[z.threshold_yaw, '#1565c088'], [-z.threshold_yaw, '#1565c088'], [z.threshold_pitch, '#d8431588'], [-z.threshold_pitch, '#d8431588']]) {
        g.strokeStyle = col; g.beginPath(); g.moveTo(0, Y(v)); g.lineTo(w, Y(v)); g.stroke();
      }
      g.setLineDash([2, 3]);
      for (const [axis, v] of heldLines(z)) for (const sign of [1, -1]) {
        g.strokeStyle = axis === 'yaw' ? '#1565c055' : '#d8431555'; g.beginPath(); g.moveTo(0, Y(sign * v)); g.lineTo(w, Y(sign * v)); g.stroke();
      }
      g.setLineDash([]);
      for (const [key, col] of [['yaw', '#1565c0'], ['pitch', '#d84315']]) {
        g.strokeStyle = col; g.lineWidth = 2; g.beginPath();
        samples.forEach((p, i) => i ? g.lineTo(X(p.t), Y(p[key])) : g.moveTo(X(p.t), Y(p[key]))); g.stroke();
      }
      g.lineWidth = 1; g.fillStyle = '#333'; g.font = '11px sans-serif';
      for (const m of marks) {
        const x = X(m.t);
        if (m.unheard) { g.fillStyle = '#9e9e9e33'; g.fillRect(X(m.from), 0, x - X(m.from), h); g.fillStyle = '#757575'; g.fillText(m.label, X(m.from) + 2, h - 4); g.fillStyle = '#333'; continue; }
        g.strokeStyle = '#555'; g.beginPath(); g.moveTo(x, 0); g.lineTo(x, h); g.stroke(); g.fillText(m.label, x + 2, 12);
      }
    }

    function frame() { drawPlot(); drawStrip(); requestAnimationFrame(frame); }

    // The live picture: fetched only while the page is visible, one at a time, about five a second.
    async function picture() {
      if (document.visibilityState === 'visible') {
        try {
          const r = await fetch('/api/picture.jpg', { cache: 'no-store' });
          if (r.ok) {
            const seen = JSON.parse(r.headers.get('X-Nodwire-Face') || 'null');
            drawPicture(await createImageBitmap(await r.blob()), seen);
          }
        } catch (e) { /* the server is away: the status says so */ }
      }
      setTimeout(picture, 200);
    }
    function drawPicture(bitmap, seen) {
      const c = $('picture'), g = c.getContext('2d');
      if (c.width !== bitmap.width) { c.width = bitmap.width; c.height = bitmap.height; }
      g.drawImage(bitmap, 0, 0);
      const f = seen && seen.face;
      if (f) {
        g.strokeStyle = '#43a047'; g.lineWidth = 2; g.strokeRect(f.box[0], f.box[1], f.box[2] - f.box[0], f.box[3] - f.box[1]);
        g.fillStyle = '#ffeb3b'; for (const [x, y] of f.landmarks) { g.beginPath(); g.arc(x, y, 3, 0, 2 * Math.PI); g.fill(); }
        g.strokeStyle = '#e53935'; g.beginPath(); g.moveTo(f.pointer[0] - 8, f.pointer[1]); g.lineTo(f.pointer[0] + 8, f.pointer[1]);
        g.moveTo(f.pointer[0], f.pointer[1] - 8); g.lineTo(f.pointer[0], f.pointer[1] + 8); g.stroke();
      }
      const why = !status ? '' : status.state === 'paused' ? 'paused' + (status.mode === 'paused' ? ' (battery or heat)' : '')
        : status.camera !== 'ok' ? 'camera lost' : !f ? 'no face' : f.dim ? 'dim face: light it from the front' : '';
      if (why) { g.fillStyle = '#0008'; g.fillRect(0, 0, c.width, 34); g.fillStyle = '#fff'; g.font = '22px sans-serif'; g.fillText(why, 10, 25); }
      document.body.dataset.pictures = (+(document.body.dataset.pictures || 0) + 1);
      document.body.dataset.faceBox = f ? 'yes' : 'no';
      document.body.dataset.dim = f && f.dim ? 'yes' : 'no';
    }

    // The guided fit: start it, follow its prompts (polled twice a second), then show the proposal.
    async function post(path, body) {
      const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
      if (token) headers['Authorization'] = 'Bearer ' + token;
      const r = await fetch(path, { method: 'POST', headers, body: body || '' });
      const reply = await r.json().catch(() => ({ ok: false, message: r.statusText }));
      text('fit-reply', (r.ok ? '' : r.status + ': ') + reply.message);
      return r.ok;
    }
    let fitTimer = null;
    async function fitPoll() {
      clearTimeout(fitTimer);
      const r = await fetch('/api/fit', { headers: token ? { 'Authorization': 'Bearer ' + token } : {} });
      if (r.status === 404) { $('fit-box').hidden = true; $('tune').hidden = true; return; }   // replay: no fit, no tuning
      if (!r.ok) return;
      const f = await r.json();
      document.body.dataset.fit = f.state;
      $('fit-run').hidden = f.state !== 'recording' && f.state !== 'working';
      $('fit-cancel').hidden = f.state !== 'recording';
      $('fit-start').disabled = f.state === 'recording' || f.state === 'working';
      $('fit-result').hidden = f.state !== 'done';
      if (f.state === 'recording') {
        text('fit-prompt', (f.face ? '' : 'No face in the picture. ') + f.prompt);
        $('fit-progress').value = f.progress; text('fit-left', Math.ceil(f.seconds_left) + ' s');
      } else if (f.state === 'working') { text('fit-prompt', 'Working out the fit…'); }
      else if (f.state === 'failed') { text('fit-reply', 'The fit failed: ' + f.message); }
      else if (f.state === 'done') { showFit(f); }
      if (f.state === 'recording' || f.state === 'working') fitTimer = setTimeout(fitPoll, 500);
    }
    function showFit(f) {
      const rep = f.report, found = rep.found.length, all = found + rep.missed.length;
      text('fit-score', 'With the proposal, this session: ' + found + ' of ' + all + ' prompted gestures found'
        + (rep.missed.length ? ' (missed: ' + rep.missed.join(', ') + ')' : '') + '; ' + rep.false_while_talking + ' event(s) while talking, '
        + rep.false_elsewhere + ' nod or shake where none was asked.');
      const tb = $('fit-changes').tBodies[0]; tb.textContent = '';
      for (const c of rep.changes) {
        const tr = document.createElement('tr'); if (c.old !== c.new) tr.className = 'changed';
        for (const v of [c.key.replace('gestures.', ''), c.old, c.new]) { const td = document.createElement('td'); td.textContent = v; tr.append(td); }
        tb.append(tr);
      }
      const ul = $('fit-notes'); ul.textContent = '';
      for (const n of rep.notes) { const li = document.createElement('li'); li.textContent = n; ul.append(li); }
      for (const [step, why] of Object.entries(rep.why_missed || {})) { const li = document.createElement('li'); li.textContent = step + ' prompt: ' + why; ul.append(li); }
      if (f.kept) text('fit-reply', 'Session kept: ' + f.kept);
      $('fit-save').disabled = !f.can_save;
      if (!f.can_save) text('fit-reply', 'nodwire run was started without --config: the proposal can be read here but not saved.');
    }
    $('tune-form').addEventListener('submit', async e => {
      e.preventDefault();
      const body = new URLSearchParams(new FormData($('tune-form'))).toString();
      const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
      if (token) headers['Authorization'] = 'Bearer ' + token;
      const r = await fetch('/api/settings', { method: 'POST', headers, body });
      const reply = await r.json().catch(() => ({ message: r.statusText }));
      text('tune-reply', (r.ok ? '' : r.status + ': ') + reply.message);
      document.activeElement.blur();
    });
    $('fit-start').onclick = async () => { if (await post('/api/fit/start', 'pace=' + $('fit-pace').value + ($('fit-keep').checked ? '&keep=1' : ''))) fitPoll(); };
    $('fit-cancel').onclick = async () => { await post('/api/fit/cancel'); fitPoll(); };
    $('fit-discard').onclick = async () => { await post('/api/fit/cancel'); fitPoll(); };
    $('fit-save').onclick = async () => { if (await post('/api/fit/save')) { document.body.dataset.fitSaved = 'yes'; } };

    let source = null;
    async function start() {
      const r = await fetch('/api/status');
      if (r.status === 401) { $('state').textContent = 'token needed'; $('token-form').hidden = false; return; }
      if (r.ok) showStatus(await r.json());
      if (source) source.close();
      source = new EventSource('/api/events');
      // Counts of what arrived, on the page's <body> (data-events, data-poses): for checks in a real browser.
      const count = k => { document.body.dataset[k] = (+(document.body.dataset[k] || 0) + 1); };
      source.onmessage = m => { count('events'); addEvent(JSON.parse(m.data)); };
      source.addEventListener('status', m => showStatus(JSON.parse(m.data)));
      source.addEventListener('pose', m => { count('poses'); addPose(JSON.parse(m.data)); });
      source.onerror = () => { $('state').textContent = 'reconnecting…'; $('state').className = 'badge offline'; };
    }
    start();
    fitPoll();
    requestAnimationFrame(frame);
    picture();
    """
}
