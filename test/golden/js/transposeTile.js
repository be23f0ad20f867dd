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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEHgEAsHDgIDcnVuAAMEaGVhcAMACrUUA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC+oRBxJ/AnwKfwR7An8CfAh/IA0gDmwgD2whHgJAQQAhEwJAA0AgEyAPTw0BAkBBACESAkADQCASIA5PDQECQEEAIREgDbghI0EBISIgBrcgB0EQbCARarehISQgIiAHQRBsIBFqtyAjoEQAAAAAAADgQWVxISIgJEQAAAAAAAAAAKUgI6SqISUgBbggCEEQbCASaiAGbCAHQRBsaiARarehISQgIiAIQRBsIBJqIAZsIAdBEGxqIBFqtyAjoEQAAAAAAADgQWVxISIgJEQAAAAAAAAAAKUgI6SqISYgJEQAAAAAAADwwaBEAAAAAAAAAAClICOkqiEnRAAAAAAAAAAAIAhBEGwgEmogBmwgB0EQbGogEWq3oSEkICREAAAAAAAAAAClICOkqiEoQRG4IBG3oSEkICIgEbcgI6BEAAAAAAAA4EFlcSEiICREAAAAAAAAAAClICOkqiEpICREAAAAAAAA8MGgRAAAAAAAAAAApSAjpKohKkQAAAAAAAAAACARt6EhJCAkRAAAAAAAAAAApSAjpKohKwJAA0AgESANTw0BIA0hISARICVJICUgIUlxBEAgJSEhCyARICZJICYgIUlxBEAgJiEhCyARICdJICcgIUlxBEAgJyEhCyARIChJICggIUlxBEAgKCEhCyARIClJICkgIUlxBEAgKSEhCyARICpJICogIUlxBEAgKiEhCyARICtJICsgIUlxBEAgKyEhCyAiBEBBACAIQRBsIBJqIAZsIAdBEGxqIBFqIAVPciASQRBPciARQRFPckUEQEEAIAdBEGwgEWogBkgEfyAIQRBsIBJqIAZIBUEAC3IhLCAsQQBGBEACQANAIBFBBGogIUsNASATIA5sIBJqIA1sIBFqIR0CQCARQQRqIREMAQsMAQsLCyAsQQFGBEACQANAIBFBBGogIUsNASATIA5sIBJqIA1sIBFqIR0CQCASQRFsIBFqIR9BkICAgAAgH0ECdGohICAgIAQgCEEQbCASaiAGbCAHQRBsaiARakECdGr9AAAA/QsAACARQQRqIREMAQsMAQsLCwsFIA0hIQsCQANAIBEgIU8NAQJAIBMgDmwgEmogDWwgEWohHQJAIAdBEGwgEWogBkgEfyAIQRBsIBJqIAZIBUEACwRAIAhBEGwgEmogBmwgB0EQbGogEWogBU8EQCAAIAFBAUEAIAhBEGwgEmogBmwgB0EQbGogEWogBSAHIAggCSARIBIgExABAAsgEkEQTwRAIAAgAUECQQEgEiARIAcgCCAJIBEgEiATEAEACyARQRFPBEAgACABQQJBASASIBEgByAIIAkgESASIBMQAQALQZCAgIAAIBJBEWwgEWpBAnRqIAQgCEEQbCASaiAGbCAHQRBsaiARakECdGoqAgA4AgALCwsgEUEBaiERDAALCwwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwtBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhEf0MAAAAAAEAAAACAAAAAwAAACEwQRH9ESExQQD9ESEyIA24ITVBASE0IAa3IAhBEGwgEWq3oSE2IDQgCEEQbCARarcgNaBEAAAAAAAA4EFlcSE0IDZEAAAAAAAAAAClIDWkqiE3QRC4IBG3oSE2IDQgEbcgNaBEAAAAAAAA4EFlcSE0IDZEAAAAAAAAAAClIDWkqiE4IDZEAAAAAAAA8MGgRAAAAAAAAAAApSA1pKohOUQAAAAAAAAAACARt6EhNiA2RAAAAAAAAAAApSA1pKohOiADuCAHQRBsIBJqIAZsIAhBEGxqIBFqt6EhNiA0IAdBEGwgEmogBmwgCEEQbGogEWq3IDWgRAAAAAAAAOBBZXEhNCA2RAAAAAAAAAAApSA1pKohOyA2RAAAAAAAAPDBoEQAAAAAAAAAAKUgNaSqITxEAAAAAAAAAAAgB0EQbCASaiAGbCAIQRBsaiARarehITYgNkQAAAAAAAAAAKUgNaSqIT0CQANAIBEgDU8NASANITMgESA3SSA3IDNJcQRAIDchMwsgESA4SSA4IDNJcQRAIDghMwsgESA5SSA5IDNJcQRAIDkhMwsgESA6SSA6IDNJcQRAIDohMwsgESA7SSA7IDNJcQRAIDshMwsgESA8SSA8IDNJcQRAIDwhMwsgESA9SSA9IDNJcQRAID0hMwsgNARAQQAgEUEQT3IgEkERT3IgB0EQbCASaiAGbCAIQRBsaiARaiADT3JFBEBBACAIQRBsIBFqIAZIBH8gB0EQbCASaiAGSAVBAAtyIT4gPkEARgRAAkADQCARQQRqIDNLDQEgEyAObCASaiANbCARaiEdAkAgEUEEaiERDAELDAELCwsgPkEBRgRAAkADQCARQQRqIDNLDQEgEyAObCASaiANbCARaiEdAkAgB0EQbCASaiAGbCAIQRBsaiARaiEtIAIgLUECdGohLiAuIBH9ESAw/a4BIDH9tQEgEv0R/a4BIS8gMkGQgICAACAv/RsAQQJ0aigCAP0cAEGQgICAACAv/RsBQQJ0aigCAP0cAUGQgICAACAv/RsCQQJ0aigCAP0cAkGQgICAACAv/RsDQQJ0aigCAP0cA/0LAAAgEUEEaiERDAELDAELCwsLBSANITMLAkADQCARIDNPDQECQCATIA5sIBJqIA1sIBFqIR0CQCAIQRBsIBFqIAZIBH8gB0EQbCASaiAGSAVBAAsEQCARQRBPBEAgACABQQJBAiARIBIgByAIIAkgESASIBMQAQALIBJBEU8EQCAAIAFBAkECIBEgEiAHIAggCSARIBIgExABAAsgB0EQbCASaiAGbCAIQRBsaiARaiADTwRAIAAgAUEDQQMgB0EQbCASaiAGbCAIQRBsaiARaiADIAcgCCAJIBEgEiATEAEACyACIAdBEGwgEmogBmwgCEEQbGogEWpBAnRqQZCAgIAAIBFBEWwgEmpBAnRqKgIAOAIACwsLIBFBAWohEQwACwsMAAsLCyASQQFqIRIMAAsLCyATQQFqIRMMAAsLCwuhAQEEf0GQgICAAEEAQcAI/AsAIA4gD08EQA8LIA4hEyAOIAdwIRAgDiAHbiAIcCERIA4gB24gCG4hEgJAA0AgEyAPTw0BIAAgASACIAMgBCAFIAYgECARIBIgByAIIAkgCiALIAwgDRACIBNBAWohEyAQQQFqIRAgECAHRgRAQQAhECARQQFqIREgESAIRgRAQQAhESASQQFqIRILCwwACwsLAB8MZ3B1Yy50aHJlYWRzdQidCK8KmRGuEcMR2BHrE7QU";
