/// The report's stylesheet and script, inline (the page loads nothing else). Colours meet
/// 4.5:1 in the light and the dark scheme; severity always has an icon and a word beside
/// its colour; nothing moves; the layout reflows to one column at 200% zoom; printed, every
/// finding and every "how to fix" is shown and each drawing stays with its list.
package enum HTMLAssets {
    package static let style = """
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1c1c1e;--muted:#3a3a3c;--line:#8e8e93;--panel:#f2f2f7;--link:#0040a8;--focus:#7a5c00;--selected:#fff4c2;
        --error:#b3001b;--warning:#8a4b00;--notice:#0040a8;--badge-text:#ffffff;--canvas:#ffffff;--wire:#aeaeb2}
        @media (prefers-color-scheme: dark){:root{--bg:#1c1c1e;--fg:#f2f2f7;--muted:#d1d1d6;--line:#8e8e93;--panel:#2c2c2e;--link:#8cc2ff;--focus:#ffd60a;--selected:#3a3000;
        --error:#ff8a95;--warning:#ffb340;--notice:#8cc2ff;--badge-text:#1c1c1e;--canvas:#2c2c2e;--wire:#636366}}
        *{box-sizing:border-box}
        body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;padding:16px 24px;color:var(--fg);background:var(--bg)}
        a{color:var(--link)}a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible,li.finding:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
        h1{font-size:1.6rem;margin:0 0 8px}h2{font-size:1.3rem;margin:32px 0 8px}h3{font-size:1.1rem;margin:16px 0 8px}h4{font-size:1rem}
        .meta,.where{color:var(--muted)}code{font-size:.9em}
        .skip{position:absolute;left:-10000px}.skip:focus{left:16px;top:8px;background:var(--bg);padding:4px 8px}
        .sev{font-weight:600;white-space:nowrap}.sev-error{--c:var(--error)}.sev-warning{--c:var(--warning)}.sev-notice{--c:var(--notice)}
        .sev.sev-error,.sev.sev-warning,.sev.sev-notice{color:var(--c)}
        .totals{display:flex;flex-wrap:wrap;gap:8px 24px;list-style:none;padding:0}
        .verdict{font-size:1.15rem;padding:8px 12px;border-left:6px solid var(--c,var(--line));background:var(--panel);margin:8px 0}
        .verdict-fail{--c:var(--error)}.verdict-pass{--c:var(--line)}.verdict strong{color:var(--c,var(--fg))}.verdict-pass strong{color:var(--fg)}
        table{border-collapse:collapse;margin:12px 0;min-width:50%}caption{text-align:left;font-weight:600;padding:4px 0}
        th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}thead th{background:var(--panel)}
        .table{max-width:100%;overflow-x:auto}code,.where,.message,.evidence dd,h1,h2,h3,h4,p,li,.element,th,td{overflow-wrap:anywhere}.pair>*{min-width:0}
        td{font-variant-numeric:tabular-nums}
        .filters{background:var(--panel);padding:8px 16px;border-radius:8px}.filters fieldset{border:0;display:inline-flex;gap:12px;flex-wrap:wrap;padding:0;margin:0 24px 0 0}
        .filters legend{font-weight:600;float:left;margin-right:8px}.filters label{white-space:nowrap;display:inline-block;max-width:100%}select{font:inherit;max-width:calc(100% - 5em)}
        .state{border:1px solid currentColor;border-radius:4px;padding:0 6px;font-size:.85em;white-space:nowrap}
        .snapshot{border-top:2px solid var(--line);margin-top:24px}
        .long .snapshot{content-visibility:auto;contain-intrinsic-size:auto 1000px}
        .pair{display:grid;grid-template-columns:minmax(220px,390px) minmax(0,1fr);gap:24px;align-items:start}
        @media (max-width:820px){.pair{grid-template-columns:minmax(0,1fr)}}
        .pair.wide{grid-template-columns:minmax(0,1fr)}.pair.wide figure{position:static}.pair.wide svg.screen{max-height:none}
        button.enlarge{font:inherit;min-height:24px;margin-left:4px}
        figure{margin:0;position:sticky;top:8px}figcaption{color:var(--muted);font-size:.9rem}
        svg.screen{width:100%;height:auto;max-height:90vh;overflow:hidden;border:1px solid var(--line);background:var(--canvas);display:block}
        .canvas{fill:var(--canvas)}.el{fill:none;stroke:var(--wire);stroke-width:.75}
        .marker{cursor:pointer}.outline-of .halo{fill:none;stroke:#ffffff;stroke-width:5;vector-effect:non-scaling-stroke}
        .outline-of .outline{fill:none;stroke:var(--c);stroke-width:2.5;vector-effect:non-scaling-stroke}
        .marker .ring{fill:none;stroke:#1c1c1e;stroke-width:6;vector-effect:non-scaling-stroke}
        .marker .badge{fill:var(--c);stroke:#ffffff;stroke-width:2;vector-effect:non-scaling-stroke}
        .marker .number{fill:var(--badge-text);font-weight:700;font-family:system-ui,sans-serif}
        .marker:focus{outline:none}.marker:focus .ring,.marker.selected .ring{stroke:#ffd60a;stroke-width:7}
        .outline-of.selected .halo,.outline-of.focused .halo{stroke:#ffd60a;stroke-width:9}.outline-of.selected .outline,.outline-of.focused .outline{stroke-width:4}
        .outline-of.paired .halo{stroke:#ffd60a;stroke-width:7}.marker.unchanged .layer{opacity:.55}.marker.unchanged:focus .layer,.marker.unchanged.selected .layer{opacity:1}.leaders line{stroke:var(--c);stroke-width:2;vector-effect:non-scaling-stroke}
        ol.findings{list-style:none;padding:0;margin:0}li.finding{border:1px solid var(--line);border-left:6px solid var(--c);border-radius:6px;padding:8px 12px;margin:0 0 10px}
        li.finding.selected{background:var(--selected);outline:3px solid var(--focus)}li.finding.paired{outline:2px dashed var(--focus)}
        .head{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center}
        .number{display:inline-block;min-width:2em;text-align:center;font:inherit;font-weight:700;border-radius:1em;padding:0 6px;
        background:var(--c);color:var(--badge-text);border:2px solid var(--c)}button.number{cursor:pointer}
        .message{margin:6px 0;font-weight:500}.evidence{display:flex;flex-wrap:wrap;gap:2px 20px;margin:6px 0}
        .evidence div{display:flex;gap:6px}.evidence dt{color:var(--muted)}.evidence dt::after{content:":"}.evidence dd{margin:0}
        .swatch{display:inline-block;width:1em;height:1em;border:1px solid var(--line);vertical-align:-.15em;margin-right:4px}
        .wcag a{display:inline-block;min-height:24px;line-height:24px;margin-right:12px}details summary{cursor:pointer;min-height:24px}details.help p{margin:4px 0 0}.none{color:var(--muted)}
        .failed{color:var(--error)}
        .stops{display:none}.snapshot:has(details.transcript[open]) g.stops{display:inline}
        .stop-frame{fill:none;stroke:var(--link);stroke-width:1.5;stroke-dasharray:4 3;vector-effect:non-scaling-stroke}
        .stop-tag{fill:var(--link);stroke:#ffffff;stroke-width:1;vector-effect:non-scaling-stroke}.stop-number{fill:var(--bg);font-weight:700;font-family:system-ui,sans-serif}
        ol.stops{display:block;padding-left:2.5em;margin:8px 0}ol.stops li{margin:2px 0}details.transcript{margin:16px 0}
        @media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
        @media print{.filters,.skip,nav,button.enlarge{display:none}.snapshot{content-visibility:visible}body{padding:0}figure{position:static}svg.screen{max-height:none}
        .snapshot{break-before:page}.pair{display:block}.pair figure{break-inside:avoid;max-width:40%;margin-bottom:12px}li.finding{break-inside:avoid}
        li.finding p,li.finding dl,li.finding .head{margin:2px 0}li.finding{margin:0 0 8px;padding-top:4px;padding-bottom:4px}
        li.finding[hidden]{display:block}.marker{display:inline !important}a{color:inherit}details.help{display:none}}
        svg.crop{float:right;margin:0 0 6px 12px;border:1px solid var(--line);max-width:45%;height:auto}svg.crop .canvas{fill:var(--canvas)}
        svg.crop .crop-frame{fill:none;stroke:var(--c);stroke-width:2;vector-effect:non-scaling-stroke}li.finding:not([hidden]){display:flow-root}
        .help-by-rule dt{font-weight:600;margin-top:12px}.help-by-rule dd{margin:4px 0 0 0}.help-by-rule dt,.help-by-rule dd{overflow-wrap:anywhere}
        """

    package static let script = """
        (() => {
          const doc = document;
          const items = Array.from(doc.querySelectorAll('li.finding'));
          const byId = id => doc.getElementById(id);
          function clear(name) { doc.querySelectorAll('.' + name).forEach(e => e.classList.remove(name)); }
          // Selecting a finding, from the list or from its element's marker, marks both, and
          // focus moves to the other side: from the marker to the finding (so it is read),
          // from the finding's number to the marker.
          // A marker's outline is drawn apart, under every badge (o- and the marker's id).
          const outlineOf = marker => [byId('o-' + marker.id)].filter(Boolean);
          function select(anchor, from) {
            clear('selected');
            const item = byId('f-' + anchor), marker = item && item.dataset.marker && byId(item.dataset.marker);
            if (item) item.classList.add('selected');
            if (marker) { marker.classList.add('selected'); outlineOf(marker).forEach(o => o.classList.add('selected')); }
            if (from === 'marker' && item) { item.focus({preventScroll: true}); item.scrollIntoView({block: 'nearest'}); }
            if (from === 'list' && marker) { marker.scrollIntoView({block: 'nearest'}); marker.focus({preventScroll: true}); }
          }
          // A marker's findings, in list order; the first one shown is the one it selects.
          const findingsOf = marker => marker.dataset.findings.split(' ').map(a => byId('f-' + a)).filter(Boolean);
          doc.addEventListener('click', event => {
            const marker = event.target.closest('a.marker');
            if (marker) {
              event.preventDefault();
              const first = findingsOf(marker).find(item => !item.hidden);
              select(first ? first.id.slice(2) : marker.dataset.finding, 'marker');
              return;
            }
            // "Full width": the drawing across the column, above its findings, and back.
            const enlarge = event.target.closest('button.enlarge');
            if (enlarge) {
              const wide = enlarge.getAttribute('aria-pressed') !== 'true';
              enlarge.setAttribute('aria-pressed', String(wide));
              enlarge.closest('.pair').classList.toggle('wide', wide);
              return;
            }
            const button = event.target.closest('li.finding button.number');
            if (button) select(button.closest('li.finding').id.slice(2), 'list');
          });
          // Hovering or focusing a marker shows its findings, and a finding its marker.
          function pair(event, on) {
            const marker = event.target.closest && event.target.closest('a.marker');
            const item = !marker && event.target.closest && event.target.closest('li.finding');
            const others = marker ? findingsOf(marker) : item && item.dataset.marker ? [byId(item.dataset.marker)] : [];
            const markers = marker ? [marker] : others;
            [marker || item].concat(others, ...markers.filter(Boolean).map(outlineOf)).forEach(e => { if (e) e.classList.toggle('paired', on); });
            if (marker && event.type.startsWith('focus')) outlineOf(marker).forEach(o => o.classList.toggle('focused', on));
          }
          doc.addEventListener('focusin', e => pair(e, true)); doc.addEventListener('focusout', e => pair(e, false));
          doc.addEventListener('mouseover', e => pair(e, true)); doc.addEventListener('mouseout', e => pair(e, false));
          // Filters: severity, rule and baseline state hide findings; a marker shows its
          // worst finding still shown (its badge of that severity, stacked over the others)
          // and how many are shown, and hides when none is.
          const form = byId('filters');
          const order = ['notice', 'warning', 'error'];
          function apply() {
            const severities = new Set(Array.from(form.querySelectorAll('input[name=severity]:checked')).map(i => i.value));
            const rule = form.elements.rule.value, state = form.elements.state ? form.elements.state.value : '';
            let shown = 0;
            for (const item of items) {
              const visible = severities.has(item.dataset.severity) && (!rule || item.dataset.rule === rule) && (!state || item.dataset.state === state);
              item.hidden = !visible;
              if (visible) shown += 1;
            }
            doc.querySelectorAll('a.marker').forEach(marker => {
              const visible = findingsOf(marker).filter(item => !item.hidden);
              marker.style.display = visible.length ? '' : 'none';
              outlineOf(marker).forEach(o => { o.style.display = marker.style.display; });
              if (!visible.length) return;
              const present = new Set(visible.map(item => item.dataset.severity));
              const worst = order.filter(s => present.has(s)).pop();
              [marker].concat(outlineOf(marker)).forEach(e => order.forEach(s => e.classList.toggle('sev-' + s, s === worst)));
              const label = visible.length === 1 ? visible[0].id.split('-').pop() : '×' + visible.length;
              marker.querySelectorAll('g.layer').forEach(layer => {
                layer.style.display = present.has(layer.dataset.severity) ? '' : 'none';
                layer.querySelector('text').textContent = label;
              });
            });
            byId('shown').textContent = 'Showing ' + shown + ' of ' + items.length + ' findings';
          }
          if (form) form.addEventListener('change', apply);
          // Printed, every incomplete list and transcript is open
          // (each rule's help is printed once, at the end, not under every finding).
          window.addEventListener('beforeprint', () => doc.querySelectorAll('details:not(.help)').forEach(d => { d.open = true; }));
        })();
        """
}
