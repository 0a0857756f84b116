/* Before the first paint: the theme this browser chose with the toggle (dark or light), if any; without a
   choice the stylesheet follows prefers-color-scheme. Loaded without defer, it is tiny on purpose. */
try {
  const theme = JSON.parse(localStorage.getItem("p10.theme"));
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
} catch (err) { /* storage disabled */ }
