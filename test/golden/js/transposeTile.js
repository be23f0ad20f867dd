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

function transposeTile($state, out, x, n, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  const $nt = $dx * $dy * $dz;
  const $s0_tile = new Float32Array(272);
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    $block: {
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th0: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if (((((Math.imul($bx, 16)) + ($tx)) | 0) < n) && ((((Math.imul($by, 16)) + ($ty)) | 0) < n)) {
          if ((((((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0) >>> 0) >= (x.length >>> 0)) {
            gpuc_report_exception$0($state, 1, 0, (((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0, x.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($ty) >>> 0) >= 16) {
            gpuc_report_exception$0($state, 2, 1, $ty, $tx, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($tx) >>> 0) >= 17) {
            gpuc_report_exception$0($state, 2, 1, $ty, $tx, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          $s0_tile[(Math.imul(($ty), 17) + ($tx)) | 0] = x[(((Math.imul((((Math.imul($by, 16)) + ($ty)) | 0), n) + (Math.imul($bx, 16))) | 0) + ($tx)) | 0];
        }
      }
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th1: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        if (((((Math.imul($by, 16)) + ($tx)) | 0) < n) && ((((Math.imul($bx, 16)) + ($ty)) | 0) < n)) {
          if ((($tx) >>> 0) >= 16) {
            gpuc_report_exception$0($state, 2, 2, $tx, $ty, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((($ty) >>> 0) >= 17) {
            gpuc_report_exception$0($state, 2, 2, $tx, $ty, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          if ((((((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0) >>> 0) >= (out.length >>> 0)) {
            gpuc_report_exception$0($state, 3, 3, (((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0, out.length, $bx, $by, $bz, $tx, $ty, $tz);
            throw $trap;
          }
          out[(((Math.imul((((Math.imul($bx, 16)) + ($ty)) | 0), n) + (Math.imul($by, 16))) | 0) + ($tx)) | 0] = $s0_tile[(Math.imul(($tx), 17) + ($ty)) | 0];
        }
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEHgEAsHDgIDcnVuAAMEaGVhcAMACoAPA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC7UMHg5/DHsBfwJ7AX8CewF/AXsCfwF7AX8OewF/AnsBfw57AX8BewF/A3sBfwF7An8BewF/A3sBfwF7AX8BeyANIA5sIA9sIR4CQEEAIRMCQANAIBMgD08NAQJAQQAhEgJAA0AgEiAOTw0BAkBBACERIAdBEGz9ESE6/QwAAAAAAQAAAAIAAAADAAAAITsgBv0RITwgCEEQbP0RIT0gBv0RIT4gCEEQbP0RIT8gBv0RIUAgB0EQbP0RIUEgBf0RIUJBEP0RIUNBEf0RIURBEf0RIUdBAP0RIUoCQANAIBEgDU8NAQJAIBMgDmwgEmogDWwgEWohHQJAIBFBA3ENACARQQRqIA1LDQAgOiAR/REgO/2uAf2uASA8/TkgPSAS/RH9rgEgPv05/U4hOSA5/aMBBEAgPyAS/RH9rgEgQP21ASBB/a4BIBH9ESA7/a4B/a4BIEL9QP1TDQEgEv0RIEP9QP1TDQEgEf0RIDv9rgEgRP1A/VMNASAS/REgR/21ASAR/REgO/2uAf2uASFGIEb9GwAhRSBGIEX9ESA7/a4B/Tf9owFFDQFBkICAgAAgRUECdGohSCBIID8gEv0R/a4BIED9tQEgQf2uASAR/REgO/2uAf2uASFJIEogBCBJ/RsAQQJ0aigCAP0cACAEIEn9GwFBAnRqKAIA/RwBIAQgSf0bAkECdGooAgD9HAIgBCBJ/RsDQQJ0aigCAP0cA/0LAAAFIDn9Uw0BCyARQQNqIREMAQsCQCAHQRBsIBFqIAZIBH8gCEEQbCASaiAGSAVBAAsEQCAIQRBsIBJqIAZsIAdBEGxqIBFqIAVPBEAgACABQQFBACAIQRBsIBJqIAZsIAdBEGxqIBFqIAUgByAIIAkgESASIBMQAQALIBJBEE8EQCAAIAFBAkEBIBIgESAHIAggCSARIBIgExABAAsgEUERTwRAIAAgAUECQQEgEiARIAcgCCAJIBEgEiATEAEAC0GQgICAACASQRFsIBFqQQJ0aiAEIAhBEGwgEmogBmwgB0EQbGogEWpBAnRqKgIAOAIACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwtBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhESAIQRBs/REhTP0MAAAAAAEAAAACAAAAAwAAACFNIAb9ESFOIAdBEGz9ESFPIAb9ESFQQRD9ESFRQRH9ESFSIAdBEGz9ESFTIAb9ESFUIAhBEGz9ESFVIAP9ESFWQRH9ESFbQQD9ESFcAkADQCARIA1PDQECQCATIA5sIBJqIA1sIBFqIR0CQCARQQNxDQAgEUEEaiANSw0AIEwgEf0RIE39rgH9rgEgTv05IE8gEv0R/a4BIFD9Of1OIWUgZf2jAQRAIBH9ESBN/a4BIFH9QP1TDQEgEv0RIFL9QP1TDQEgUyAS/RH9rgEgVP21ASBV/a4BIBH9ESBN/a4B/a4BIFb9QP1TDQEgUyAS/RH9rgEgVP21ASBV/a4BIBH9ESBN/a4B/a4BIWcgZ/0bACFmIGcgZv0RIE39rgH9N/2jAUUNASACIGZBAnRqIWggaCAR/REgTf2uASBb/bUBIBL9Ef2uASFpIFxBkICAgAAgaf0bAEECdGooAgD9HABBkICAgAAgaf0bAUECdGooAgD9HAFBkICAgAAgaf0bAkECdGooAgD9HAJBkICAgAAgaf0bA0ECdGooAgD9HAP9CwAABSBl/VMNAQsgEUEDaiERDAELAkAgCEEQbCARaiAGSAR/IAdBEGwgEmogBkgFQQALBEAgEUEQTwRAIAAgAUECQQIgESASIAcgCCAJIBEgEiATEAEACyASQRFPBEAgACABQQJBAiARIBIgByAIIAkgESASIBMQAQALIAdBEGwgEmogBmwgCEEQbGogEWogA08EQCAAIAFBA0EDIAdBEGwgEmogBmwgCEEQbGogEWogAyAHIAggCSARIBIgExABAAsgAiAHQRBsIBJqIAZsIAhBEGxqIBFqQQJ0akGQgICAACARQRFsIBJqQQJ0aioCADgCAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLCwuhAQEEf0GQgICAAEEAQcAI/AsAIA4gD08EQA8LIA4hEyAOIAdwIRAgDiAHbiAIcCERIA4gB24gCG4hEgJAA0AgEyAPTw0BIAAgASACIAMgBCAFIAYgECARIBIgByAIIAkgCiALIAwgDRACIBNBAWohEyAQQQFqIRAgECAHRgRAQQAhECARQQFqIREgESAIRgRAQQAhESASQQFqIRILCwwACwsLAB8MZ3B1Yy50aHJlYWRzdQjrBaUIiQyeDLMMyAy6Dv8O";
