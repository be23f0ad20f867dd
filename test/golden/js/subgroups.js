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

function subgroups($state, out, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  const $nt = $dx * $dy * $dz;
  const $xv0 = new Int32Array($nt);
  const $xv1 = new Int32Array($nt), $xl1 = new Uint32Array($nt);
  const $xv2 = new Uint8Array($nt);
  const $L4 = new Int32Array($nt);
  const $L6 = new Int32Array($nt);
  const $L8 = new Int32Array($nt);
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    $block: {
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th0: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let $r4 = $L4[$t];
        if ((((Math.imul($bx, $dx) + $tx) | 0) >>> 0) >= (x.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 0, (Math.imul($bx, $dx) + $tx) | 0, x.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        $r4 = x[(Math.imul($bx, $dx) + $tx) | 0];
        $xv0[$t] = $r4;
        $L4[$t] = $r4;
      }
      let $xk0 = -1, $xr0;
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th1: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp = 0;
        let $r4 = $L4[$t];
        let $r6 = $L6[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          if ($xk0 !== $b) {
            let $acc = 0;
            for (let $j = 0; $j < $n; $j++) if (true) { const $v = $xv0[$b + $j]; $acc = ($acc + $v) | 0; }
            $xk0 = $b; $xr0 = $acc;
          }
          tmp = $xr0;
        }
        $r6 = tmp;
        $xv1[$t] = $r4;
        $xl1[$t] = 1;
        $L6[$t] = $r6;
      }
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th2: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp_1 = 0;
        let $r4 = $L4[$t];
        let $r8 = $L8[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          const $j = ($l ^ $xl1[$t]) >>> 0;
          tmp_1 = $j < $n ? $xv1[$b + $j] : $xv1[$t];
        }
        $r8 = tmp_1;
        $xv2[$t] = ($r4 > 0) ? 1 : 0;
        $L8[$t] = $r8;
      }
      let $xk2 = -1, $xr2;
      for (let $tz = 0; $tz < $dz; $tz++) for (let $ty = 0; $ty < $dy; $ty++) $th3: for (let $tx = 0; $tx < $dx; $tx++) {
        const $t = ($tz * $dy + $ty) * $dx + $tx;
        const $lane = $t % $S;
        let tmp_2 = 0, ballot = 0;
        let $r6 = $L6[$t];
        let $r8 = $L8[$t];
        {
          const $l = $t % $S, $b = $t - $l, $n = Math.min($S, $nt - $b);
          if ($xk2 !== $b) {
            let $acc = 0;
            for (let $j = 0; $j < $n; $j++) if (true) { const $v = $xv2[$b + $j] === 1; $acc = $v ? ($acc | (1 << $j)) >>> 0 : $acc; }
            $xk2 = $b; $xr2 = $acc;
          }
          tmp_2 = $xr2;
        }
        ballot = tmp_2;
        if ((((Math.imul($bx, $dx) + $tx) | 0) >>> 0) >= (out.length >>> 0)) {
          gpuc_report_exception$0($state, 2, 1, (Math.imul($bx, $dx) + $tx) | 0, out.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        out[(Math.imul($bx, $dx) + $tx) | 0] = ((((($r6 + $r8) | 0) + ((ballot | 0) & 255)) | 0) + $lane) | 0;
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBPwRgB39/f39/f38AYAx/f39/f39/f39/f38AYBB/f39/f39/f39/f39/f39/AGAPf39/f39/f39/f39/f39/AAIeAgFtCWRpdmVyZ2VudAAAAW0GbWVtb3J5AgEBgIAEAwQDAQIDBggBfwBBgMgCCwcOAgNydW4AAwRoZWFwAwAKpgwDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLhgkBF38gDCANbCAObCEdAkBBACESAkADQCASIA5PDQECQEEAIRECQANAIBEgDU8NAQJAQQAhEAJAA0AgECAMTw0BAkAgEiANbCARaiAMbCAQaiEcIBwgD3AhEwJAIAYgDGwgEGogBU8EQCAAIAFBAUEAIAYgDGwgEGogBSAGIAcgCCAQIBEgEhABAAsgBCAGIAxsIBBqQQJ0aigCACEVQYCAgIAAIBxBA3RqIBU2AABBgOCBgAAgHEECdGogFTYAAAsLIBBBAWohEAwACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwtBfyEeQQAhEgJAA0AgEiAOTw0BAkBBACERAkADQCARIA1PDQECQEEAIRACQANAIBAgDE8NAQJAIBIgDWwgEWogDGwgEGohHCAcIA9wIRNBgOCBgAAgHEECdGooAAAhFUEAIRYCQCAcIA9wISAgHCAgayEhIA8gHSAhayAPIB0gIWtJGyEiIB4gIUcEQEEAISRBACEjAkADQCAjICJPDQEgJEGAgICAACAhICNqQQN0aigAAGohJCAjQQFqISMMAAsLICEhHiAkIR8LIB8hFiAWIRdBgMCAgAAgHEEDdGogFTYAAEGAgIGAACAcQQJ0akEBNgIAQYCAgoAAIBxBAnRqIBc2AAALCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLQQAhEgJAA0AgEiAOTw0BAkBBACERAkADQCARIA1PDQECQEEAIRACQANAIBAgDE8NAQJAIBIgDWwgEWogDGwgEGohHCAcIA9wIRNBgOCBgAAgHEECdGooAAAhFUEAIRgCQCAcIA9wISMgHCAjayEiIA8gHSAiayAPIB0gImtJGyEhQYCAgYAAIBxBAnRqKAIAISQgIyAkcyEgICAgIUkEf0GAwICAACAiICBqQQN0aigAAAVBgMCAgAAgHEEDdGooAAALIRggGCEZQYCggYAAIBxBA3RqIBVBAEo2AABBgKCCgAAgHEECdGogGTYAAAsLIBBBAWohEAwACwsLIBFBAWohEQwACwsLIBJBAWohEgwACwtBfyElQQAhEgJAA0AgEiAOTw0BAkBBACERAkADQCARIA1PDQECQEEAIRACQANAIBAgDE8NAQJAIBIgDWwgEWogDGwgEGohHCAcIA9wIRNBgICCgAAgHEECdGooAAAhF0GAoIKAACAcQQJ0aigAACEZQQAhGkEAIRsCQCAcIA9wISAgHCAgayEhIA8gHSAhayAPIB0gIWtJGyEiICUgIUcEQEEAISRBACEjAkADQCAjICJPDQEgJEEBICN0ciAkQYCggYAAICEgI2pBA3RqKAAAGyEkICNBAWohIwwACwsgISElICQhJgsgJiEaIBohGyAGIAxsIBBqIANPBEAgACABQQJBASAGIAxsIBBqIAMgBiAHIAggECARIBIQAQALIAIgBiAMbCAQakECdGogFyAZaiAbQf8BcWogE2o2AgALCyAQQQFqIRAMAAsLCyARQQFqIREMAAsLCyASQQFqIRIMAAsLCwv2AQEEf0GAgICAAEEAQYDAAPwLAEGAwICAAEEAQYDAAPwLAEGAgIGAAEEAQYAg/AsAQYCggYAAQQBBgMAA/AsAQYDggYAAQQBBgCD8CwBBgICCgABBAEGAIPwLAEGAoIKAAEEAQYAg/AsAIA0gDk8EQA8LIA0hEiANIAZwIQ8gDSAGbiAHcCEQIA0gBm4gB24hEQJAA0AgEiAOTw0BIAAgASACIAMgBCAFIA8gECARIAYgByAIIAkgCiALIAwQAiASQQFqIRIgD0EBaiEPIA8gBkYEQEEAIQ8gEEEBaiEQIBAgB0YEQEEAIRAgEUEBaiERCwsMAAsLCwA9DGdwdWMudGhyZWFkc3MX4QPyA/YEyQX6BYsGnAacB9MH8geFCJsIrwizCcQJowrPC94L7Qv7C4oMmAymDA==";
