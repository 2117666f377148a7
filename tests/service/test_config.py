"""Configuration from the environment (DESIGN.md's table), with embedded defaults."""

from __future__ import annotations

from service.config import from_env


def test_base_url_defaults_to_the_web_process_port(tmp_path, monkeypatch):
    """Emails must link to where `make run` serves: PORT moves the default BASE_URL with it."""
    monkeypatch.delenv("BASE_URL", raising=False)
    monkeypatch.delenv("PORT", raising=False)
    assert from_env(tmp_path)["BASE_URL"] == "http://127.0.0.1:5000"
    monkeypatch.setenv("PORT", "5077")
    assert from_env(tmp_path)["BASE_URL"] == "http://127.0.0.1:5077"
    monkeypatch.setenv("BASE_URL", "https://riftpost.example/")
    assert from_env(tmp_path)["BASE_URL"] == "https://riftpost.example"


def test_smtp_url_set_means_no_dev_mailbox(tmp_path, monkeypatch):
    monkeypatch.delenv("SMTP_URL", raising=False)
    assert from_env(tmp_path)["DEV_MAILBOX"] is True
    monkeypatch.setenv("SMTP_URL", "smtp://mail.example:25")
    settings = from_env(tmp_path)
    assert settings["DEV_MAILBOX"] is False and settings["SMTP_URL"] == "smtp://mail.example:25"
