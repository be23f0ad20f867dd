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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEGwCgsHDgIDcnVuAAMEaGVhcAMACrATA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC9gQFAZ/AX0EfwN7An8EewJ/AnsCfwJ8Cn8GewZ/AnsCfwZ7BH8KewJ/DnsgDSAObCAPbCEbQaCCgIAAKAAAIRhBqIKAgABBACAb/AsAAkBBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhEUMAAAAA/RMhHUMAAAAA/RMhHkMAAAAA/RMhJCANuCErQQEhKiAGQcAAarcgByANbCARarehISwgKiAHIA1sIBFqtyAroEQAAAAAAADgQWVxISogLEQAAAAAAAAAAKUgK6SqIS0gBrcgByANbCARarehISwgKiAHIA1sIBFqtyAroEQAAAAAAADgQWVxISogLEQAAAAAAAAAAKUgK6SqIS4gBbggByANbCARarehISwgKiAHIA1sIBFqtyAroEQAAAAAAADgQWVxISogLEQAAAAAAAAAAKUgK6SqIS8gLEQAAAAAAADwwaBEAAAAAAAAAAClICukqiEwRAAAAAAAAAAAIAcgDWwgEWq3oSEsICxEAAAAAAAAAAClICukqiExQcAAuCARt6EhLCAqIBG3ICugRAAAAAAAAOBBZXEhKiAsRAAAAAAAAAAApSArpKohMiAsRAAAAAAAAPDBoEQAAAAAAAAAAKUgK6SqITNEAAAAAAAAAAAgEbehISwgLEQAAAAAAAAAAKUgK6SqITQCQANAIBEgDU8NASANISkgESAtSSAtIClJcQRAIC0hKQsgESAuSSAuIClJcQRAIC4hKQsgESAvSSAvIClJcQRAIC8hKQsgESAwSSAwIClJcQRAIDAhKQsgESAxSSAxIClJcQRAIDEhKQsgESAySSAyIClJcQRAIDIhKQsgESAzSSAzIClJcQRAIDMhKQsgESA0SSA0IClJcQRAIDQhKQsgKgRAQQAgByANbCARaiAFT3IgEUHAAE9yRQRAQQAgByANbCARaiAGQcAAak5yIAcgDWwgEWogBkhBAXRyITUgNUEARgRAAkADQCARQQRqIClLDQEgEyAObCASaiANbCARaiEaAkAgHSEcIB4hHCARIR9BkICAgAAgH0ECdGohICAgIBz9CwAAIBFBBGohEQwBCwwBCwsLIDVBAkYEQAJAA0AgEUEEaiApSw0BIBMgDmwgEmogDWwgEWohGgJAICQhIyAEIAcgDWwgEWpBAnRq/QAAACEjIBEhJUGQgICAACAlQQJ0aiEmICYgI/0LAAAgEUEEaiERDAELDAELCwsLBSANISkLAkADQCARIClPDQECQCATIA5sIBJqIA1sIBFqIRpDAAAAACEXAkAgByANbCARaiAGQcAAak4EQEGogoCAACAaakEBOgAADAELIAcgDWwgEWogBkgEQCAHIA1sIBFqIAVPBEAgACABQQNBACAHIA1sIBFqIAUgByAIIAkgESASIBMQAQALIAQgByANbCARakECdGoqAgAhFwVDAAAAACEXCyARQcAATwRAIAAgAUEBQQEgEUHAACAHIAggCSARIBIgExABAAtBkICAgAAgEUECdGogFzgCAAsLIBFBAWohEQwACwsMAAsLCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLQSAhGAJAA0ACQCAYQQBKRSE2IDZBAUYEQAwDC0EAIRMCQANAIBMgD08NAQJAQQAhEgJAA0AgEiAOTw0BAkBBACERQQD9ESFI/QwAAAAAAQAAAAIAAAADAAAAIUogGP0RIUsgGP0RIUwCQANAIBEgDU8NAQJAIBMgDmwgEmogDWwgEWohGgJAIBFBA3ENACARQQRqIA1LDQBBqIKAgAAgGmooAAANACBIIUcgEf0RIEr9rgEgS/05IUkgSf2jAQRAIBH9ESBK/a4BIEz9rgEhRyARIU1BkICAgAAgTUECdGohTiARIBhqIU9BkICAgAAgT0ECdGohUCBPIE1rITYgNkEDakEHSSA2QQBHcQ0BIE4gTv0AAAAgUP0AAAD95AH9CwAABSBJ/VMNAQsgEUEDaiERDAELQaiCgIAAIBpqLQAADQBBACEZAkAgESAYSARAIBEgGGohGUGQgICAACARQQJ0akGQgICAACARQQJ0aioCAEGQgICAACAZQQJ0aioCAJI4AgALCwsgEUEBaiERDAALCwsgEkEBaiESDAALCwsgE0EBaiETDAALCwsgGEEBdSEYDAALC0EAIRMCQANAIBMgD08NAQJAQQAhEgJAA0AgEiAOTw0BAkBBACER/QwAAAAAAQAAAAIAAAADAAAAIWJBAP0RIWMgByADT/0R/aEBIWQgB/0RIWdBAP0RIWlBAP0RIWoCQANAIBEgDU8NAQJAIBMgDmwgEmogDWwgEWohGgJAIBFBA3ENACARQQRqIA1LDQBBqIKAgAAgGmooAAANACAR/REgYv2uASBj/TchYSBh/aMBBEAgZP1TDQEgZyFlIGkhaCBqQZCAgIAAIGj9GwBBAnRqKAIA/RwAQZCAgIAAIGj9GwFBAnRqKAIA/RwBQZCAgIAAIGj9GwJBAnRqKAIA/RwCQZCAgIAAIGj9GwNBAnRqKAIA/RwDIWYgAiBl/RsAQQJ0aiBm/R8AOAIAIAIgZf0bAUECdGogZv0fATgCACACIGX9GwJBAnRqIGb9HwI4AgAgAiBl/RsDQQJ0aiBm/R8DOAIABSBh/VMNAQsgEUEDaiERDAELQaiCgIAAIBpqLQAADQACQCARQQBGBEAgByADTwRAIAAgAUECQQIgByADIAcgCCAJIBEgEiATEAEACyACIAdBAnRqQZCAgIAAQQBBAnRqKgIAOAIACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwsLQaCCgIAAIBg2AAALrgEBBH9BkICAgABBAEGAAvwLAEGggoCAAEEAQQj8CwAgDiAPTwRADwsgDiETIA4gB3AhECAOIAduIAhwIREgDiAHbiAIbiESAkADQCATIA9PDQEgACABIAIgAyAEIAUgBiAQIBEgEiAHIAggCSAKIAsgDCANEAIgE0EBaiETIBBBAWohECAQIAdGBEBBACEQIBFBAWohESARIAhGBEBBACERIBJBAWohEgsLDAALCwsAPQxncHVjLnRocmVhZHN1F/gCgwPWCL4JoQqvC4ENvQ3SDZ4OwA7MDtsOrhDiEPcQjBGhEZYS2BKRE6ITsBM=";
