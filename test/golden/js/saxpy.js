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

function saxpy($state, a, x, y, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  if ($gx * $dx <= 2147483648) {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      const $txEnd = Math.min($dx, y.length - $bx * $dx);
      if ($bx * $dx + $txEnd <= x.length && $bx * $dx + $txEnd <= y.length) {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          y[i] = Math.fround(Math.fround(a * x[i]) + y[i]);
        }
      } else {
        for (let $tz = 0; $tz < $dz; $tz++)
        for (let $ty = 0; $ty < $dy; $ty++)
        for (let $tx = 0; $tx < $txEnd; $tx++) {
          let i = 0;
          i = (Math.imul($bx, $dx) + $tx) | 0;
          if ((i >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((i >>> 0) >= (y.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 1, i, y.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          y[i] = Math.fround(Math.fround(a * x[i]) + y[i]);
        }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  } else {
    for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
      for (let $tz = 0; $tz < $dz; $tz++)
      for (let $ty = 0; $ty < $dy; $ty++)
      for (let $tx = 0; $tx < $dx; $tx++) {
        let i = 0;
        i = (Math.imul($bx, $dx) + $tx) | 0;
        if (i < y.length) {
          if ((i >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((i >>> 0) >= (y.length >>> 0)) {
            gpuc_report_exception$0($state, 2, 1, i, y.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          y[i] = Math.fround(Math.fround(a * x[i]) + y[i]);
        }
      }
      if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
    }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBNwNgDH9/f39/f39/f39/fwBgEX9/fX9/f39/f39/f39/f39/AGAQf399f39/f39/f39/f39/fwACEAEBbQZtZW1vcnkCAQGAgAQDBAMAAQIGBwF/AEGACAsHDgIDcnVuAAIEaGVhcAMACrkKA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC/wHBQp/AXsCfwJ8CX8gDSAObCAPbCEXAkBBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhESAC/RMhGyANuCEeQQEhHSAGtyAHIA1sIBFqt6EhHyAdIAcgDWwgEWq3IB6gRAAAAAAAAOBBZXEhHSAfRAAAAAAAAAAApSAepKohICAEuCAHIA1sIBFqt6EhHyAdIAcgDWwgEWq3IB6gRAAAAAAAAOBBZXEhHSAfRAAAAAAAAAAApSAepKohISAfRAAAAAAAAPDBoEQAAAAAAAAAAKUgHqSqISJEAAAAAAAAAAAgByANbCARarehIR8gH0QAAAAAAAAAAKUgHqSqISMgBrggByANbCARarehIR8gHSAHIA1sIBFqtyAeoEQAAAAAAADgQWVxIR0gH0QAAAAAAAAAAKUgHqSqISQgH0QAAAAAAADwwaBEAAAAAAAAAAClIB6kqiElRAAAAAAAAAAAIAcgDWwgEWq3oSEfIB9EAAAAAAAAAAClIB6kqiEmQQEgAyAEQQJ0aiAFTSAFIAZBAnRqIANNcnEhJwJAA0AgESANTw0BIA0hHCARICBJICAgHElxBEAgICEcCyARICFJICEgHElxBEAgISEcCyARICJJICIgHElxBEAgIiEcCyARICNJICMgHElxBEAgIyEcCyARICRJICQgHElxBEAgJCEcCyARICVJICUgHElxBEAgJSEcCyARICZJICYgHElxBEAgJiEcCyAdBEBBACAHIA1sIBFqIARPciAHIA1sIBFqIAZPciAnRXJFBEBBACAHIA1sIBFqIAZIciEoIChBAEYEQAJAA0AgEUEEaiAcSw0BIBMgDmwgEmogDWwgEWohFgJAIBFBBGohEQwBCwwBCwsLIChBAUYEQAJAA0AgEUEEaiAcSw0BIBMgDmwgEmogDWwgEWohFgJAIAcgDWwgEWohGCAFIBhBAnRqIRkgAyAYQQJ0aiEaIBkgGyAa/QAAAP3mASAZ/QAAAP3kAf0LAAAgEUEEaiERDAELDAELCwsLBSANIRwLAkADQCARIBxPDQECQCATIA5sIBJqIA1sIBFqIRYCQCAHIA1sIBFqIAZIBEAgByANbCARaiAETwRAIAAgAUEBQQAgByANbCARaiAEIAcgCCAJIBEgEiATEAAACyAHIA1sIBFqIAZPBEAgACABQQJBASAHIA1sIBFqIAYgByAIIAkgESASIBMQAAALIAUgByANbCARakECdGogAiADIAcgDWwgEWpBAnRqKgIAlCAFIAcgDWwgEWpBAnRqKgIAkjgCAAsLCyARQQFqIREMAAsLDAALCwsgEkEBaiESDAALCwsgE0EBaiETDAALCwsLkwEBBH8gDiAPTwRADwsgDiETIA4gB3AhECAOIAduIAhwIREgDiAHbiAIbiESAkADQCATIA9PDQEgACABIAIgAyAEIAUgBiAQIBEgEiAHIAggCSAKIAsgDCANEAEgE0EBaiETIBBBAWohECAQIAdGBEBBACEQIBFBAWohESARIAhGBEBBACERIBJBAWohEgsLDAALCwsADwxncHVjLnRocmVhZHNdAA==";
