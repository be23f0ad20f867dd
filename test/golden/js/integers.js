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

function integers($state, out, a, b, $gx, $gy, $gz, $dx, $dy, $dz, $b0, $b1) {
  let $bx0 = 0, $by0 = 0, $bz0 = 0; if ($b1 === undefined) { $b0 = 0; $b1 = $gx * $gy * $gz; } else { $bx0 = $b0 % $gx; $by0 = Math.floor($b0 / $gx) % $gy; $bz0 = Math.floor(Math.floor($b0 / $gx) / $gy); }
  for (let $b = $b0, $bx = $bx0, $by = $by0, $bz = $bz0; $b < $b1; $b++) {
    for (let $tz = 0; $tz < $dz; $tz++)
    for (let $ty = 0; $ty < $dy; $ty++)
    for (let $tx = 0; $tx < $dx; $tx++) {
      let i = 0, q = 0, r = 0, u = 0, m = 0, tmp = 0;
      i = $tx;
      if ((i >>> 0) >= (a.length >>> 0)) {
        gpuc_report_exception$0($state, 1, 0, i, a.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      if ((i >>> 0) >= (b.length >>> 0)) {
        gpuc_report_exception$0($state, 2, 1, i, b.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      q = (a[i] / b[i]) | 0;
      r = (a[i] % b[i]) | 0;
      u = (a[i] >>> 0) >>> ((b[i] & 7) >>> 0);
      m = Math.imul(a[i], (-1640531535));
      tmp = a[i];
      if ((i >>> 0) >= (out.length >>> 0)) {
        gpuc_report_exception$0($state, 3, 2, i, out.length, $bx, $by, $bz, $tx, $ty, $tz);
        throw $trap;
      }
      out[i] = (((((((q + r) | 0) + ((u > 4294967000) ? 1 : 0)) | 0) + (m ^ (m >> 15))) | 0) + (((tmp < 0) ? true : ((tmp >>> 0) < u)) ? 2 : 0)) | 0;
    }
    if (++$bx === $gx) { $bx = 0; if (++$by === $gy) { $by = 0; $bz++; } }
  }
}

const $wasm = "AGFzbQEAAAAADQtncHVjLnByZWZlcgEBOQNgDH9/f39/f39/f39/fwBgEn9/f39/f39/f39/f39/f39/fwBgEX9/f39/f39/f39/f39/f39/AAIQAQFtBm1lbW9yeQIBAYCABAMEAwABAgYHAX8AQYAICwcOAgNydW4AAgRoZWFwAwAK+xADowEBBH9BASEPIABBBUECdGohDSANKAIAIQ4gDSAOIA9qNgIAIA4hDCAMQQBGBEAgAEEAQQJ0aiACNgIAIABBAUECdGogAzYCACAAQQJBAnRqIAQ2AgAgAEEDQQJ0aiAFNgIAIABBBEECdGogCSAKQQp0ciALQRR0cjYCACAAQQdBAnRqIAY2AgAgAEEIQQJ0aiAHNgIAIABBCUECdGogCDYCAAsLvA4NDH8HewJ/AXsBfwF7An8IewF/B3sCfwJ8C38gDiAPbCAQbCEdAkBBACEUAkADQCAUIBBPDQECQEEAIRMCQANAIBMgD08NAQJAQQAhEkEA/REhH0EH/REhMUGx893xef0RITNBAf0RITVBAP0RITZB2H39ESE3QQL9ESE4QQD9ESE5QQH9Ef2hASE6QQD9ESE7IA64IT5BASE9IAW4IBK3oSE/ID0gErcgPqBEAAAAAAAA4EFlcSE9ID9EAAAAAAAAAAClID6kqiFAID9EAAAAAAAA8MGgRAAAAAAAAAAApSA+pKohQUQAAAAAAAAAACASt6EhPyA/RAAAAAAAAAAApSA+pKohQiAHuCASt6EhPyA9IBK3ID6gRAAAAAAAAOBBZXEhPSA/RAAAAAAAAAAApSA+pKohQyA/RAAAAAAAAPDBoEQAAAAAAAAAAKUgPqSqIUREAAAAAAAAAAAgErehIT8gP0QAAAAAAAAAAKUgPqSqIUUgA7ggErehIT8gPSAStyA+oEQAAAAAAADgQWVxIT0gP0QAAAAAAAAAAKUgPqSqIUYgP0QAAAAAAADwwaBEAAAAAAAAAAClID6kqiFHRAAAAAAAAAAAIBK3oSE/ID9EAAAAAAAAAAClID6kqiFIQQEgAiADQQJ0aiAETSAEIAVBAnRqIAJNcnEgAiADQQJ0aiAGTSAGIAdBAnRqIAJNcnEgBCAFQQJ0aiAGTSAGIAdBAnRqIARNcnEhSQJAA0AgEiAOTw0BIA4hPCASIEBJIEAgPElxBEAgQCE8CyASIEFJIEEgPElxBEAgQSE8CyASIEJJIEIgPElxBEAgQiE8CyASIENJIEMgPElxBEAgQyE8CyASIERJIEQgPElxBEAgRCE8CyASIEVJIEUgPElxBEAgRSE8CyASIEZJIEYgPElxBEAgRiE8CyASIEdJIEcgPElxBEAgRyE8CyASIEhJIEggPElxBEAgSCE8CyA9BEBBACASIAVPciASIAdPciASIANPciBJRXJFBEBBACFKIEpBAEYEQAJAA0AgEkEEaiA8Sw0BIBQgD2wgE2ogDmwgEmohHAJAIB8hHiAfISAgHyEhIB8hIiAfISMgEiElIAQgJUECdGohJiAm/QAAACEkIAYgJUECdGohKCAo/QAAACEnICT9GwAhKiAn/RsAISsgK0UEf0EABSArQX9GBH9BACAqawUgKiArbQsL/REhKSApICT9GwEhKyAn/RsBISogKkUEf0EABSAqQX9GBH9BACArawUgKyAqbQsL/RwBISkgKSAk/RsCISogJ/0bAiErICtFBH9BAAUgK0F/RgR/QQAgKmsFICogK20LC/0cAiEpICkgJP0bAyErICf9GwMhKiAqRQR/QQAFICpBf0YEf0EAICtrBSArICptCwv9HAMhKSApIR4gJv0AAAAhLCAo/QAAACEtICz9GwAhKiAt/RsAISsgK0UEf0EABSAqICtvC/0RIS4gLiAs/RsBISsgLf0bASEqICpFBH9BAAUgKyAqbwv9HAEhLiAuICz9GwIhKiAt/RsCISsgK0UEf0EABSAqICtvC/0cAiEuIC4gLP0bAyErIC39GwMhKiAqRQR/QQAFICsgKm8L/RwDIS4gLiEgICb9AAAAIS8gKP0AAAAgMf1OITAgL/0bACAw/RsAdv0RITIgMiAv/RsBIDD9GwF2/RwBITIgMiAv/RsCIDD9GwJ2/RwCITIgMiAv/RsDIDD9GwN2/RwDITIgMiEhICb9AAAAIDP9tQEhIiAm/QAAACEjIAIgJUECdGohNCA0IB4gIP2uASA1IDYgISA3/Tz9Uv2uASAiICJBD/2sAf1R/a4BIDggOSA6ICMgIf06ICMgO/05/VL9Uv2uAf0LAAAgEkEEaiESDAELDAELCwsLBSAOITwLAkADQCASIDxPDQECQCAUIA9sIBNqIA5sIBJqIRxBACEXQQAhGEEAIRlBACEaQQAhGwJAIBIgBU8EQCAAIAFBAUEAIBIgBSAIIAkgCiASIBMgFBAAAAsgEiAHTwRAIAAgAUECQQEgEiAHIAggCSAKIBIgEyAUEAAACyAEIBJBAnRqKAIAISogBiASQQJ0aigCACErICtFBH9BAAUgK0F/RgR/QQAgKmsFICogK20LCyEXIAQgEkECdGooAgAhKyAGIBJBAnRqKAIAISogKkUEf0EABSArICpvCyEYIAQgEkECdGooAgAgBiASQQJ0aigCAEEHcXYhGSAEIBJBAnRqKAIAQbHz3fF5bCEaIAQgEkECdGooAgAhGyASIANPBEAgACABQQNBAiASIAMgCCAJIAogEiATIBQQAAALIAIgEkECdGogFyAYakEBQQAgGUHYfUsbaiAaIBpBD3VzakECQQAgG0EASAR/QQEFIBsgGUkLG2o2AgALCyASQQFqIRIMAAsLDAALCwsgE0EBaiETDAALCwsgFEEBaiEUDAALCwsLlQEBBH8gDyAQTwRADwsgDyEUIA8gCHAhESAPIAhuIAlwIRIgDyAIbiAJbiETAkADQCAUIBBPDQEgACABIAIgAyAEIAUgBiAHIBEgEiATIAggCSAKIAsgDCANIA4QASAUQQFqIRQgEUEBaiERIBEgCEYEQEEAIREgEkEBaiESIBIgCUYEQEEAIRIgE0EBaiETCwsMAAsLCwAPDGdwdWMudGhyZWFkc18A";
