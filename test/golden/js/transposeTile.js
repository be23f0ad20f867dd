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

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBQQRgB39/f39/f38AYAx/f39/f39/f39/f38AYBF/f39/f39/f39/f39/f39/fwBgEH9/f39/f39/f39/f39/f38AAh4CAW0JZGl2ZXJnZW50AAABbQZtZW1vcnkCAQGAgAQDBAMBAgMGBwF/AEHAEAsHDgIDcnVuAAMEaGVhcAMACqgPA6MBAQR/QQEhDyAAQQVBAnRqIQ0gDSgCACEOIA0gDiAPajYCACAOIQwgDEEARgRAIABBAEECdGogAjYCACAAQQFBAnRqIAM2AgAgAEECQQJ0aiAENgIAIABBA0ECdGogBTYCACAAQQRBAnRqIAkgCkEKdHIgC0EUdHI2AgAgAEEHQQJ0aiAGNgIAIABBCEECdGogBzYCACAAQQlBAnRqIAg2AgALC90MCg5/AXsBfwF7AX8CewF/AXsBfwF7IA0gDmwgD2whHgJAQQAhEwJAA0AgEyAPTw0BAkBBACESAkADQCASIA5PDQECQEEAIRECQANAIBEgDU8NAQJAIBMgDmwgEmogDWwgEWohHQJAIBFBA3ENACARQQRqIA1LDQAgB0EQbP0RIBH9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAf2uASAG/RH9OSAIQRBs/REgEv0R/a4BIAb9Ef05/U4hHyAf/aMBBEAgCEEQbP0RIBL9Ef2uASAG/RH9tQEgB0EQbP0R/a4BIBH9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAf2uASAF/RH9QP1TDQEgEv0RQRD9Ef1A/VMNASAR/RH9DAAAAAABAAAAAgAAAAMAAAD9rgFBEf0R/UD9Uw0BIBL9EUER/RH9tQEgEf0R/QwAAAAAAQAAAAIAAAADAAAA/a4B/a4BISEgIf0bACEgICEgIP0R/QwAAAAAAQAAAAIAAAADAAAA/a4B/Tf9owFFDQFBgICAgAAgIEECdGohIiAiIAhBEGz9ESAS/RH9rgEgBv0R/bUBIAdBEGz9Ef2uASAR/RH9DAAAAAABAAAAAgAAAAMAAAD9rgH9rgEhI0EA/REgBCAj/RsAQQJ0aigCAP0cACAEICP9GwFBAnRqKAIA/RwBIAQgI/0bAkECdGooAgD9HAIgBCAj/RsDQQJ0aigCAP0cA/0LAAAFIB/9Uw0BCyARQQNqIREMAQsCQCAHQRBsIBFqIAZIBH8gCEEQbCASaiAGSAVBAAsEQCAIQRBsIBJqIAZsIAdBEGxqIBFqIAVPBEAgACABQQFBACAIQRBsIBJqIAZsIAdBEGxqIBFqIAUgByAIIAkgESASIBMQAQALIBJBEE8EQCAAIAFBAkEBIBIgESAHIAggCSARIBIgExABAAsgEUERTwRAIAAgAUECQQEgEiARIAcgCCAJIBEgEiATEAEAC0GAgICAACASQRFsIBFqQQJ0aiAEIAhBEGwgEmogBmwgB0EQbGogEWpBAnRqKgIAOAIACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwsLIBNBAWohEwwACwtBACETAkADQCATIA9PDQECQEEAIRICQANAIBIgDk8NAQJAQQAhEQJAA0AgESANTw0BAkAgEyAObCASaiANbCARaiEdAkAgEUEDcQ0AIBFBBGogDUsNACAIQRBs/REgEf0R/QwAAAAAAQAAAAIAAAADAAAA/a4B/a4BIAb9Ef05IAdBEGz9ESAS/RH9rgEgBv0R/Tn9TiEkICT9owEEQCAR/RH9DAAAAAABAAAAAgAAAAMAAAD9rgFBEP0R/UD9Uw0BIBL9EUER/RH9QP1TDQEgB0EQbP0RIBL9Ef2uASAG/RH9tQEgCEEQbP0R/a4BIBH9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAf2uASAD/RH9QP1TDQEgB0EQbP0RIBL9Ef2uASAG/RH9tQEgCEEQbP0R/a4BIBH9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAf2uASEmICb9GwAhJSAmICX9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAf03/aMBRQ0BIAIgJUECdGohJyAnIBH9Ef0MAAAAAAEAAAACAAAAAwAAAP2uAUER/RH9tQEgEv0R/a4BIShBAP0RQYCAgIAAICj9GwBBAnRqKAIA/RwAQYCAgIAAICj9GwFBAnRqKAIA/RwBQYCAgIAAICj9GwJBAnRqKAIA/RwCQYCAgIAAICj9GwNBAnRqKAIA/RwD/QsAAAUgJP1TDQELIBFBA2ohEQwBCwJAIAhBEGwgEWogBkgEfyAHQRBsIBJqIAZIBUEACwRAIBFBEE8EQCAAIAFBAkECIBEgEiAHIAggCSARIBIgExABAAsgEkERTwRAIAAgAUECQQIgESASIAcgCCAJIBEgEiATEAEACyAHQRBsIBJqIAZsIAhBEGxqIBFqIANPBEAgACABQQNBAyAHQRBsIBJqIAZsIAhBEGxqIBFqIAMgByAIIAkgESASIBMQAQALIAIgB0EQbCASaiAGbCAIQRBsaiARakECdGpBgICAgAAgEUERbCASakECdGoqAgA4AgALCwsgEUEBaiERDAALCwsgEkEBaiESDAALCwsgE0EBaiETDAALCwsLoQEBBH9BgICAgABBAEHACPwLACAOIA9PBEAPCyAOIRMgDiAHcCEQIA4gB24gCHAhESAOIAduIAhuIRICQANAIBMgD08NASAAIAEgAiADIAQgBSAGIBAgESASIAcgCCAJIAogCyAMIA0QAiATQQFqIRMgEEEBaiEQIBAgB0YEQEEAIRAgEUEBaiERIBEgCEYEQEEAIREgEkEBaiESCwsMAAsLCwAfDGdwdWMudGhyZWFkc3UIzQWlCLEMxgzbDPAM4g6nDw==";
