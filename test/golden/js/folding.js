"use strict";
function gpuc_report_exception$0(state, code, loc, a, b, $bx, $by, $bz, $tx, $ty, $tz) {
  let tmp = 0;
  { const $a = state, $i = 5; let $o; if ($mt) { $o = Atomics.add($a, $i, 1); } else { $o = $a[$i]; $a[$i] = $o + 1; } tmp = $o; }
  if (tmp === 0) {
    state[0] = code;
    state[1] = loc;
    state[2] = a;
    state[3] = b;
    state[4] = ($tx | ($ty << 10)) | ($tz << 20);
    state[7] = $bx;
    state[8] = $by;
    state[9] = $bz;
  }
}

function folding($state, out, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let k = 0;
      k = 0.7853981852531433;
      if (($tx >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, $tx, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[$tx] = Math.fround(Math.fround(Math.sin(Math.fround(k * Math.fround($tx)))) + 17);
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNgRgAXwBfGAMf39/f39/f39/f39/AGAOf39/f39/f39/f39/f38AYA1/f39/f39/f39/f39/AAIYAgFtA3NpbgAAAW0GbWVtb3J5AgEBgIAEAwQDAQIDBgcBfwBBgAgLBw4CA3J1bgADBGhlYXADAAqfBwOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvoBAcEfwF9BH8FewJ/AnwEfyAKIAtsIAxsIRQCQEEAIRACQANAIBAgDE8NAQJAQQAhDwJAA0AgDyALTw0BAkBBACEOQ9sPST/9EyEY/QwAAAAAAQAAAAIAAAADAAAAIRlDAACIQf0TIRsgCrghHkEBIR0gA7ggDrehIR8gHSAOtyAeoEQAAAAAAADgQWVxIR0gH0QAAAAAAAAAAKUgHqSqISAgH0QAAAAAAADwwaBEAAAAAAAAAAClIB6kqiEhRAAAAAAAAAAAIA63oSEfIB9EAAAAAAAAAAClIB6kqiEiAkADQCAOIApPDQEgCiEcIA4gIEkgICAcSXEEQCAgIRwLIA4gIUkgISAcSXEEQCAhIRwLIA4gIkkgIiAcSXEEQCAiIRwLIB0EQEEAIA4gA09yRQRAQQAhIyAjQQBGBEACQANAIA5BBGogHEsNASAQIAtsIA9qIApsIA5qIRMCQCAOIRUgAiAVQQJ0aiEWIBYgGCAO/REgGf2uAf36Af3mASEXIBf9HwC7EAC2/RMhGiAaIBf9HwG7EAC2/SABIRogGiAX/R8CuxAAtv0gAiEaIBogF/0fA7sQALb9IAMhGiAaIBv95AH9CwAAIA5BBGohDgwBCwwBCwsLCwUgCiEcCwJAA0AgDiAcTw0BAkAgECALbCAPaiAKbCAOaiETAkAgDiADTwRAIAAgAUEBQQAgDiADIAQgBSAGIA4gDyAQEAEACyACIA5BAnRqQ9sPST8gDrKUuxAAtkMAAIhBkjgCAAsLIA5BAWohDgwACwsMAAsLCyAPQQFqIQ8MAAsLCyAQQQFqIRAMAAsLCwuNAQEEfyALIAxPBEAPCyALIRAgCyAEcCENIAsgBG4gBXAhDiALIARuIAVuIQ8CQANAIBAgDE8NASAAIAEgAiADIA0gDiAPIAQgBSAGIAcgCCAJIAoQAiAQQQFqIRAgDUEBaiENIA0gBEYEQEEAIQ0gDkEBaiEOIA4gBUYEQEEAIQ4gD0EBaiEPCwsMAAsLCwAPDGdwdWMudGhyZWFkc2QA";
