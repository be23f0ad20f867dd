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

function blockSum($state, out, x, n, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  const $nt = $dx * $dy * $dz;
  const $s0_s = new Float32Array(64);
  const $done = new Uint8Array($nt);
  let stride = 0;
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    $done.fill(0);
    $block: {
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th0: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if ($done[$t] === 1) continue;
        let tmp = 0;
        if (((Math.imul($bx, $dx) + ($tx)) | 0) >= ((n + 64) | 0)) {
          { $done[$t] = 1; continue $th0; }
        }
        if (((Math.imul($bx, $dx) + ($tx)) | 0) < n) {
          if ((((Math.imul($bx, $dx) + ($tx)) | 0) >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 0, (Math.imul($bx, $dx) + ($tx)) | 0, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          tmp = x[(Math.imul($bx, $dx) + ($tx)) | 0];
        } else {
          tmp = 0;
        }
        if ((($tx) >>> 0) >= 64) {
          gpuc_report_exception$0($state, 1, 1, $tx, 64, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        $s0_s[$tx] = tmp;
      }
      stride = 32;
      $rl0: for (;;) {
        $rb0: {
          const $c2 = !(stride > 0) ? 1 : 0;
          if ($c2 === 1) {
            break $rl0;
          }
          const $xEnd3 = Math.min($dx, stride);
          for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th3: for (let $tx = 0; $tx < $xEnd3; $tx++) {
            const $t = ($tz * $dy + $ty) * $dx + $tx;
            if ($done[$t] === 1) continue;
            let tmp_1 = 0;
            tmp_1 = (($tx) + stride) | 0;
            $s0_s[$tx] = Math.fround($s0_s[$tx] + $s0_s[tmp_1]);
          }
        }
        stride = stride >> 1;
      }
      const $xStart5 = Math.max(0, 0);
      const $xEnd5 = Math.min($dx, (0) + 1);
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th5: for (let $tx = $xStart5; $tx < $xEnd5; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if ($done[$t] === 1) continue;
        if (($bx >>> 0) >= (out.length >>> 0)) {
          gpuc_report_exception$0($state, 2, 2, $bx, out.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        out[$bx] = $s0_s[0];
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEGwCgsHDgIDcnVuAAMEaGVhcAMACqwTA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC9QQEgZ/AX0EfwN7An8CewR/AnwKfwZ7Bn8CewJ/BnsEfwp7An8OeyANIA5sIA9sIRtBoIKAgAAoAAAhGEGogoCAAEEAIBv8CwACQEEAIRMCQANAIBMgD08NAQJAQQAhEgJAA0AgEiAOTw0BAkBBACERQwAAAAD9EyEdQwAAAAD9EyEeQwAAAAD9EyEiIA24ISdBASEmIAZBwABqtyAHIA1sIBFqt6EhKCAmIAcgDWwgEWq3ICegRAAAAAAAAOBBZXEhJiAoRAAAAAAAAAAApSAnpKohKSAGtyAHIA1sIBFqt6EhKCAmIAcgDWwgEWq3ICegRAAAAAAAAOBBZXEhJiAoRAAAAAAAAAAApSAnpKohKiAFuCAHIA1sIBFqt6EhKCAmIAcgDWwgEWq3ICegRAAAAAAAAOBBZXEhJiAoRAAAAAAAAAAApSAnpKohKyAoRAAAAAAAAPDBoEQAAAAAAAAAAKUgJ6SqISxEAAAAAAAAAAAgByANbCARarehISggKEQAAAAAAAAAAKUgJ6SqIS1BwAC4IBG3oSEoICYgEbcgJ6BEAAAAAAAA4EFlcSEmIChEAAAAAAAAAAClICekqiEuIChEAAAAAAAA8MGgRAAAAAAAAAAApSAnpKohL0QAAAAAAAAAACARt6EhKCAoRAAAAAAAAAAApSAnpKohMAJAA0AgESANTw0BIA0hJSARIClJICkgJUlxBEAgKSElCyARICpJICogJUlxBEAgKiElCyARICtJICsgJUlxBEAgKyElCyARICxJICwgJUlxBEAgLCElCyARIC1JIC0gJUlxBEAgLSElCyARIC5JIC4gJUlxBEAgLiElCyARIC9JIC8gJUlxBEAgLyElCyARIDBJIDAgJUlxBEAgMCElCyAmBEBBACAHIA1sIBFqIAVPciARQcAAT3JFBEBBACAHIA1sIBFqIAZBwABqTnIgByANbCARaiAGSEEBdHIhMSAxQQBGBEACQANAIBFBBGogJUsNASATIA5sIBJqIA1sIBFqIRoCQCAdIRwgHiEcIBEhH0GQgICAACAfQQJ0aiEgICAgHP0LAAAgEUEEaiERDAELDAELCwsgMUECRgRAAkADQCARQQRqICVLDQEgEyAObCASaiANbCARaiEaAkAgIiEhIAQgByANbCARakECdGr9AAAAISEgESEjQZCAgIAAICNBAnRqISQgJCAh/QsAACARQQRqIREMAQsMAQsLCwsFIA0hJQsCQANAIBEgJU8NAQJAIBMgDmwgEmogDWwgEWohGkMAAAAAIRcCQCAHIA1sIBFqIAZBwABqTgRAQaiCgIAAIBpqQQE6AAAMAQsgByANbCARaiAGSARAIAcgDWwgEWogBU8EQCAAIAFBA0EAIAcgDWwgEWogBSAHIAggCSARIBIgExABAAsgBCAHIA1sIBFqQQJ0aioCACEXBUMAAAAAIRcLIBFBwABPBEAgACABQQFBASARQcAAIAcgCCAJIBEgEiATEAEAC0GQgICAACARQQJ0aiAXOAIACwsgEUEBaiERDAALCwwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwtBICEYAkADQAJAIBhBAEpFITIgMkEBRgRADAMLQQAhEwJAA0AgEyAPTw0BAkBBACESAkADQCASIA5PDQECQEEAIRFBAP0RIUT9DAAAAAABAAAAAgAAAAMAAAAhRiAY/REhRyAY/REhSAJAA0AgESANTw0BAkAgEyAObCASaiANbCARaiEaAkAgEUEDcQ0AIBFBBGogDUsNAEGogoCAACAaaigAAA0AIEQhQyAR/REgRv2uASBH/TkhRSBF/aMBBEAgEf0RIEb9rgEgSP2uASFDIBEhSUGQgICAACBJQQJ0aiFKIBEgGGohS0GQgICAACBLQQJ0aiFMIEsgSWshMiAyQQNqQQdJIDJBAEdxDQEgSiBK/QAAACBM/QAAAP3kAf0LAAAFIEX9Uw0BCyARQQNqIREMAQtBqIKAgAAgGmotAAANAEEAIRkCQCARIBhIBEAgESAYaiEZQZCAgIAAIBFBAnRqQZCAgIAAIBFBAnRqKgIAQZCAgIAAIBlBAnRqKgIAkjgCAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLCyAYQQF1IRgMAAsLQQAhEwJAA0AgEyAPTw0BAkBBACESAkADQCASIA5PDQECQEEAIRH9DAAAAAABAAAAAgAAAAMAAAAhXkEA/REhXyAHIANP/RH9oQEhYCAH/REhY0EA/REhZUEA/REhZgJAA0AgESANTw0BAkAgEyAObCASaiANbCARaiEaAkAgEUEDcQ0AIBFBBGogDUsNAEGogoCAACAaaigAAA0AIBH9ESBe/a4BIF/9NyFdIF39owEEQCBg/VMNASBjIWEgZSFkIGZBkICAgAAgZP0bAEECdGooAgD9HABBkICAgAAgZP0bAUECdGooAgD9HAFBkICAgAAgZP0bAkECdGooAgD9HAJBkICAgAAgZP0bA0ECdGooAgD9HAMhYiACIGH9GwBBAnRqIGL9HwA4AgAgAiBh/RsBQQJ0aiBi/R8BOAIAIAIgYf0bAkECdGogYv0fAjgCACACIGH9GwNBAnRqIGL9HwM4AgAFIF39Uw0BCyARQQNqIREMAQtBqIKAgAAgGmotAAANAAJAIBFBAEYEQCAHIANPBEAgACABQQJBAiAHIAMgByAIIAkgESASIBMQAQALIAIgB0ECdGpBkICAgABBAEECdGoqAgA4AgALCwsgEUEBaiERDAALCwsgEkEBaiESDAALCwsgE0EBaiETDAALCwtBoIKAgAAgGDYAAAuuAQEEf0GQgICAAEEAQYAC/AsAQaCCgIAAQQBBCPwLACAOIA9PBEAPCyAOIRMgDiAHcCEQIA4gB24gCHAhESAOIAduIAhuIRICQANAIBMgD08NASAAIAEgAiADIAQgBSAGIBAgESASIAcgCCAJIAogCyAMIA0QAiATQQFqIRMgEEEBaiEQIBAgB0YEQEEAIRAgEUEBaiERIBEgCEYEQEEAIREgEkEBaiESCwsMAAsLCwA9DGdwdWMudGhyZWFkc3UX9AL/AtIIugmdCqsL/Qy5Dc4Nmg68DsgO1w6qEN4Q8xCIEZ0RkhLUEo0TnhOsEw==";
