"""A Petstore server on Python's standard library alone.

Written from the interface document (petstore-interface.md) the way the Python
documentation teaches http.server and json: a BaseHTTPRequestHandler with
do_GET and do_POST on a ThreadingHTTPServer, urllib.parse for the path and the
query, json.loads for the body (catching json.JSONDecodeError, the error its
documentation names), int() for numbers and isinstance() for types. Nothing
here was tuned to the conformance suite.

Debian: python3. test/outside/stack-apps.ts runs it with API_KEY in the
environment; it prints the address it listens on (port 0).
"""

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

API_KEY = os.environ["API_KEY"]
STATUSES = ("available", "pending", "sold")

pets = {}
next_id = 1
lock = threading.Lock()


class PetstoreHandler(BaseHTTPRequestHandler):
    def send_json(self, status, body):
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_problem(self, status, code, message):
        self.send_json(status, {"code": code, "message": message, "status": status})

    def authorized(self):
        if self.headers.get("Authorization") == f"Bearer {API_KEY}":
            return True
        self.send_problem(401, "unauthorized", "API key missing or invalid")
        return False

    def do_GET(self):
        if not self.authorized():
            return
        url = urlsplit(self.path)
        if url.path == "/v1/pets":
            self.list_pets(parse_qs(url.query))
        elif url.path.startswith("/v1/pets/"):
            self.get_pet(url.path[len("/v1/pets/") :])
        else:
            self.send_problem(404, "not_found", "No such route")

    def list_pets(self, query):
        try:
            limit = int(query.get("limit", ["20"])[0])
        except ValueError:
            return self.send_problem(400, "invalid_limit", "limit must be an integer")
        if not 1 <= limit <= 100:
            return self.send_problem(400, "invalid_limit", "limit must be between 1 and 100")
        status = query.get("status", [None])[0]
        if status is not None and status not in STATUSES:
            return self.send_problem(400, "invalid_status", f"status must be one of {', '.join(STATUSES)}")
        with lock:
            found = [pet for pet in pets.values() if status is None or pet.get("status") == status]
        self.send_json(200, found[:limit])

    def get_pet(self, pet_id):
        try:
            pet_id = int(pet_id)
        except ValueError:
            return self.send_problem(400, "invalid_pet_id", "petId must be an integer")
        with lock:
            pet = pets.get(pet_id)
        if pet is None:
            return self.send_problem(404, "not_found", f"Pet {pet_id} not found")
        self.send_json(200, pet)

    def do_POST(self):
        global next_id
        if not self.authorized():
            return
        if urlsplit(self.path).path != "/v1/pets":
            return self.send_problem(404, "not_found", "No such route")
        length = int(self.headers.get("Content-Length", 0))
        try:
            body = json.loads(self.rfile.read(length))
        except json.JSONDecodeError as error:
            return self.send_problem(400, "invalid_json", f"Invalid JSON: {error}")
        if not isinstance(body, dict):
            return self.send_problem(400, "invalid_body", "The body must be a JSON object")
        name, category_id, status = body.get("name"), body.get("categoryId"), body.get("status")
        if not isinstance(name, str):
            return self.send_problem(400, "invalid_body", "name is required and must be a string")
        if not isinstance(category_id, int):
            return self.send_problem(400, "invalid_body", "categoryId is required and must be an integer")
        if status is not None and status not in STATUSES:
            return self.send_problem(400, "invalid_body", f"status must be one of {', '.join(STATUSES)}")
        with lock:
            pet = {"id": next_id, "name": name, "categoryId": category_id}
            if status is not None:
                pet["status"] = status
            pets[next_id] = pet
            next_id += 1
        self.send_json(201, pet)


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), PetstoreHandler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
