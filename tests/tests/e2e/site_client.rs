//! A client of the account site as a browser without JavaScript uses it: it
//! keeps cookies, does not follow redirects (tests look at each one), and
//! reads forms' hidden `csrf` values out of the pages.

use std::collections::BTreeMap;

use canvas_tests::TestApp;
use reqwest::header::{HeaderMap, COOKIE, LOCATION, SET_COOKIE};
use reqwest::{redirect, StatusCode};

/// One answer: status, headers and the page.
pub struct Page {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Page {
    pub fn location(&self) -> &str {
        self.headers.get(LOCATION).and_then(|v| v.to_str().ok()).unwrap_or("")
    }

    /// The value of the first hidden input named `name`.
    pub fn hidden(&self, name: &str) -> String {
        let marker = format!("name=\"{name}\"");
        let at = self.body.find(&marker).unwrap_or_else(|| panic!("no input named {name} in:\n{}", self.body));
        let tag_start = self.body[..at].rfind('<').unwrap();
        let tag_end = at + self.body[at..].find('>').unwrap();
        let tag = &self.body[tag_start..tag_end];
        let value = tag.split("value=\"").nth(1).unwrap_or_else(|| panic!("no value in {tag}"));
        html_unescape(&value[..value.find('"').unwrap()])
    }

    /// The value of the first hidden input named `name`, or empty when the page has none (a
    /// page without forms still carries the sign-out form's).
    pub fn hidden_or_default(&self, name: &str) -> String {
        if self.body.contains(&format!("name=\"{name}\"")) {
            self.hidden(name)
        } else {
            String::new()
        }
    }

    /// Every `Set-Cookie` line of the answer.
    pub fn set_cookies(&self) -> Vec<String> {
        self.headers.get_all(SET_COOKIE).iter().filter_map(|v| v.to_str().ok()).map(str::to_owned).collect()
    }
}

fn html_unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

pub struct SiteClient {
    http: reqwest::Client,
    pub base: String,
    pub cookies: BTreeMap<String, String>,
}

impl SiteClient {
    pub fn new(app: &TestApp) -> Self {
        let http = reqwest::Client::builder().redirect(redirect::Policy::none()).build().unwrap();
        Self { http, base: app.base_url.clone(), cookies: BTreeMap::new() }
    }

    fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    async fn finish(&mut self, request: reqwest::RequestBuilder) -> Page {
        let request = if self.cookies.is_empty() { request } else { request.header(COOKIE, self.cookie_header()) };
        let response = request.send().await.expect("the account site answers");
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.text().await.unwrap_or_default();
        let page = Page { status, headers, body };
        for line in page.set_cookies() {
            let pair = line.split(';').next().unwrap_or("");
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let expired = line.to_ascii_lowercase().contains("max-age=0");
            if expired || value.is_empty() {
                self.cookies.remove(name.trim());
            } else {
                self.cookies.insert(name.trim().to_owned(), value.trim().to_owned());
            }
        }
        page
    }

    pub async fn get(&mut self, path: &str) -> Page {
        let request = self.http.get(format!("{}{path}", self.base));
        self.finish(request).await
    }

    /// A form post, from this site (`Origin` is the site's own, as a browser sends it).
    pub async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Page {
        let request = self.http.post(format!("{}{path}", self.base)).header("Origin", &self.base).form(form);
        self.finish(request).await
    }

    /// A form post a page on another site makes.
    pub async fn post_from(&mut self, origin: &str, path: &str, form: &[(&str, &str)]) -> Page {
        let request = self.http.post(format!("{}{path}", self.base)).header("Origin", origin).form(form);
        self.finish(request).await
    }

    /// A REST call carrying only the cookies (no `Authorization`).
    pub async fn api(&mut self, method: reqwest::Method, path: &str) -> Page {
        let request = self.http.request(method, format!("{}{path}", self.base));
        self.finish(request).await
    }

    /// A REST call with a JSON body and only the cookies (no `Authorization`).
    pub async fn api_json(&mut self, method: reqwest::Method, path: &str, body: serde_json::Value) -> Page {
        let request = self.http.request(method, format!("{}{path}", self.base)).json(&body);
        self.finish(request).await
    }

    /// A REST call with the cookies, an optional JSON body and extra headers (the page's
    /// `X-Canvas-CSRF`, an `Origin`), no `Authorization` unless given among them.
    pub async fn api_with(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<serde_json::Value>,
        headers: &[(&str, &str)],
    ) -> Page {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        self.finish(request).await
    }

    /// The session's CSRF value, as the account site gives it to its pages (the session must be
    /// signed in).
    pub fn csrf(&self) -> String {
        core_service::domain::tokens::csrf_for(self.session().expect("signed in"))
    }

    /// Signs in through the form; the answer to the post.
    pub async fn sign_in(&mut self, login: &str, password: &str) -> Page {
        let form = self.get("/account/sign-in").await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.body);
        let csrf = form.hidden("csrf");
        self.post("/account/sign-in", &[("login", login), ("password", password), ("csrf", &csrf)]).await
    }

    /// The session cookie's value, whichever name the site gives it.
    pub fn session(&self) -> Option<&String> {
        self.cookies.iter().find(|(name, _)| name.ends_with("canvas_session")).map(|(_, value)| value)
    }
}
