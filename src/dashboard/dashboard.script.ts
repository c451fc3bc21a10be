/**
 * The dashboard's only script, served from this origin at /assets/dashboard.js (the pages'
 * Content-Security-Policy allows `script-src 'self'` and no inline script). Progressive
 * enhancement: copy buttons stay hidden without it, and the text can still be selected.
 */
export const DASHBOARD_JS = `'use strict';
(function () {
  function announce(button, text) {
    var status = button.nextElementSibling;
    if (!status || status.getAttribute('role') !== 'status') {
      status = document.createElement('p');
      status.setAttribute('role', 'status');
      status.className = 'copied';
      button.insertAdjacentElement('afterend', status);
    }
    status.textContent = text;
  }
  var buttons = document.querySelectorAll('button[data-copy]');
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target || !navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(target.textContent.trim()).then(
          function () { announce(button, 'Copied to the clipboard.'); },
          function () { announce(button, 'Copying failed: select the text and copy it.'); }
        );
      });
    })(buttons[i]);
  }
})();
`
