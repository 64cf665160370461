// embed.html -> index.html?embed=1&<the same parameters> (the table in embed mode).
const params = new URLSearchParams(location.search);
params.delete("embed");
const rest = params.toString();
location.replace(`index.html?embed=1${rest ? "&" + rest : ""}${location.hash}`);
