// Moving between the page's addresses without a reload. The router is
// app.js's; it registers here, so that a page module goes elsewhere without
// importing the entry module that imports it (no import circle).
let router = () => {};

export function setRouter(route) {
  router = route;
}

export function go(path) {
  history.pushState({}, "", path);
  router();
}
