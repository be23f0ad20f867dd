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
      if (($tx >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, $tx, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[$tx] = Math.fround(Math.fround(Math.sin(Math.fround(0.7853981852531433 * Math.fround($tx)))) + 17);
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNgRgAXwBfGAMf39/f39/f39/f39/AGAOf39/f39/f39/f39/f38AYA1/f39/f39/f39/f39/AAIYAgFtA3NpbgAAAW0GbWVtb3J5AgEBgIAEAwQDAQIDBgcBfwBBgAgLBw4CA3J1bgADBGhlYXADAAqbBwOjAQEEf0EBIQ8gAEEFQQJ0aiENIA0oAgAhDiANIA4gD2o2AgAgDiEMIAxBAEYEQCAAQQBBAnRqIAI2AgAgAEEBQQJ0aiADNgIAIABBAkECdGogBDYCACAAQQNBAnRqIAU2AgAgAEEEQQJ0aiAJIApBCnRyIAtBFHRyNgIAIABBB0ECdGogBjYCACAAQQhBAnRqIAc2AgAgAEEJQQJ0aiAINgIACwvkBAUIfwV7An8CfAR/IAogC2wgDGwhEwJAQQAhEAJAA0AgECAMTw0BAkBBACEPAkADQCAPIAtPDQECQEEAIQ5D2w9JP/0TIRf9DAAAAAABAAAAAgAAAAMAAAAhGEMAAIhB/RMhGiAKuCEdQQEhHCADuCAOt6EhHiAcIA63IB2gRAAAAAAAAOBBZXEhHCAeRAAAAAAAAAAApSAdpKohHyAeRAAAAAAAAPDBoEQAAAAAAAAAAKUgHaSqISBEAAAAAAAAAAAgDrehIR4gHkQAAAAAAAAAAKUgHaSqISECQANAIA4gCk8NASAKIRsgDiAfSSAfIBtJcQRAIB8hGwsgDiAgSSAgIBtJcQRAICAhGwsgDiAhSSAhIBtJcQRAICEhGwsgHARAQQAgDiADT3JFBEBBACEiICJBAEYEQAJAA0AgDkEEaiAbSw0BIBAgC2wgD2ogCmwgDmohEgJAIA4hFCACIBRBAnRqIRUgFSAXIA79ESAY/a4B/foB/eYBIRYgFv0fALsQALb9EyEZIBkgFv0fAbsQALb9IAEhGSAZIBb9HwK7EAC2/SACIRkgGSAW/R8DuxAAtv0gAyEZIBkgGv3kAf0LAAAgDkEEaiEODAELDAELCwsLBSAKIRsLAkADQCAOIBtPDQECQCAQIAtsIA9qIApsIA5qIRICQCAOIANPBEAgACABQQFBACAOIAMgBCAFIAYgDiAPIBAQAQALIAIgDkECdGpD2w9JPyAOspS7EAC2QwAAiEGSOAIACwsgDkEBaiEODAALCwwACwsLIA9BAWohDwwACwsLIBBBAWohEAwACwsLC40BAQR/IAsgDE8EQA8LIAshECALIARwIQ0gCyAEbiAFcCEOIAsgBG4gBW4hDwJAA0AgECAMTw0BIAAgASACIAMgDSAOIA8gBCAFIAYgByAIIAkgChACIBBBAWohECANQQFqIQ0gDSAERgRAQQAhDSAOQQFqIQ4gDiAFRgRAQQAhDiAPQQFqIQ8LCwwACwsLAA8MZ3B1Yy50aHJlYWRzZAA=";
