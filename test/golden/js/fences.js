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

function fences($state, partial, count, x, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, tmp = 0, ticket = 0, tmp_1 = 0;
      i = (Math.imul($bx, $dx) + $tx) | 0;
      if ((i >>> 0) >= (x.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 0, i, x.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if ((i >>> 0) >= (partial.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 1, i, partial.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      partial[i] = Math.fround(x[i] * 2);
      if ($tx === 0) {
        if (0 >= (count.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 2, 0, count.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = count, $i = 0, $v0 = $gx >>> 0; let $o; if ($mt) { for (;;) { $o = Atomics.load($a, $i); if (Atomics.compareExchange($a, $i, $o, $o >>> 0 >= $v0 >>> 0 ? 0 : $o + 1) === $o) break; } } else { $o = $a[$i]; $a[$i] = $o >>> 0 >= $v0 >>> 0 ? 0 : $o + 1; } tmp = $o; }
        ticket = tmp;
        if (1 >= (count.length >>> 0)) {
          gpuc_report_exception$0($state, 1, 3, 1, count.length, $bx, $by, $bz, $tx, $ty, $tz);
          throw $trap;
        }
        { const $a = count, $i = 1; let $o; if ($mt) { for (;;) { $o = Atomics.load($a, $i); if (Atomics.compareExchange($a, $i, $o, $o === 0 || $o >>> 0 > ticket >>> 0 ? ticket : $o - 1) === $o) break; } } else { $o = $a[$i]; $a[$i] = $o === 0 || $o >>> 0 > ticket >>> 0 ? ticket : $o - 1; } tmp_1 = $o; }
      }
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOQNgDH9/f39/f39/f39/fwBgEn9/f39/f39/f39/f39/f39/fwBgEX9/f39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAKrAwDowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsL7QkHCn8EewN/A3sCfwJ8DX8gDiAPbCAQbCEbAkBBACEUAkADQCAUIBBPDQECQEEAIRMCQANAIBMgD08NAQJAQQAhEkEA/REhHUEAIAVP/RH9oQEhI0EBIAVP/RH9oQEhJEMAAABA/RMhJSAOuCEoQQEhJ0EAtyASt6EhKSAnIBK3ICigRAAAAAAAAOBBZXEhJyApRAAAAAAAAPA/oEQAAAAAAAAAAKUgKKSqISogKUQAAAAAAAAAAKUgKKSqISsgB7ggCCAObCASarehISkgJyAIIA5sIBJqtyAooEQAAAAAAADgQWVxIScgKUQAAAAAAAAAAKUgKKSqISwgKUQAAAAAAADwwaBEAAAAAAAAAAClICikqiEtRAAAAAAAAAAAIAggDmwgEmq3oSEpIClEAAAAAAAAAAClICikqiEuIAO4IAggDmwgEmq3oSEpICcgCCAObCASarcgKKBEAAAAAAAA4EFlcSEnIClEAAAAAAAAAAClICikqiEvIClEAAAAAAAA8MGgRAAAAAAAAAAApSAopKohMEQAAAAAAAAAACAIIA5sIBJqt6EhKSApRAAAAAAAAAAApSAopKohMUEBIAIgA0ECdGogBE0gBCAFQQJ0aiACTXJxIAIgA0ECdGogBk0gBiAHQQJ0aiACTXJxIAQgBUECdGogBk0gBiAHQQJ0aiAETXJxITICQANAIBIgDk8NASAOISYgEiAqSSAqICZJcQRAICohJgsgEiArSSArICZJcQRAICshJgsgEiAsSSAsICZJcQRAICwhJgsgEiAtSSAtICZJcQRAIC0hJgsgEiAuSSAuICZJcQRAIC4hJgsgEiAvSSAvICZJcQRAIC8hJgsgEiAwSSAwICZJcQRAIDAhJgsgEiAxSSAxICZJcQRAIDEhJgsgJwRAQQAgCCAObCASaiAHT3IgCCAObCASaiADT3JBACAFT3JBASAFT3IgMkVyRQRAQQAgEkEARnIhMyAzQQBGBEACQANAIBJBBGogJksNASAUIA9sIBNqIA5sIBJqIRoCQCAdIRwgHSEeIB0hHyAIIA5sIBJqISAgAiAgQQJ0aiEhIAYgIEECdGohIiAj/VMNACAk/VMNACAhICL9AAAAICX95gH9CwAAIBJBBGohEgwBCwwBCwsLCwUgDiEmCwJAA0AgEiAmTw0BAkAgFCAPbCATaiAObCASaiEaQQAhF0EAIRhBACEZAkAgCCAObCASaiAHTwRAIAAgAUECQQAgCCAObCASaiAHIAggCSAKIBIgEyAUEAAACyAIIA5sIBJqIANPBEAgACABQQNBASAIIA5sIBJqIAMgCCAJIAogEiATIBQQAAALIAIgCCAObCASakECdGogBiAIIA5sIBJqQQJ0aioCAEMAAABAlDgCACASQQBGBEBBACAFTwRAIAAgAUEBQQJBACAFIAggCSAKIBIgEyAUEAAACyALITYgBEEAQQJ0aiE0IDQoAgAhNSA0QQAgNUEBaiA1IDZPGzYCACA1IRcgFyEYQQEgBU8EQCAAIAFBAUEDQQEgBSAIIAkgCiASIBMgFBAAAAsgGCE2IARBAUECdGohNCA0KAIAITUgNCA2IDVBAWsgNUUgNSA2S3IbNgIAIDUhGQsLCyASQQFqIRIMAAsLDAALCwsgE0EBaiETDAALCwsgFEEBaiEUDAALCwsLlQEBBH8gDyAQTwRADwsgDyEUIA8gCHAhESAPIAhuIAlwIRIgDyAIbiAJbiETAkADQCAUIBBPDQEgACABIAIgAyAEIAUgBiAHIBEgEiATIAggCSAKIAsgDCANIA4QASAUQQFqIRQgEUEBaiERIBEgCEYEQEEAIREgEkEBaiESIBIgCUYEQEEAIRIgE0EBaiETCwsMAAsLCw==";
