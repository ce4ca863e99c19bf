const ok = 1;
function broken( {
  return ok;
}
