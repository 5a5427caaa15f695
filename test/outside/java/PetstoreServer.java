/*
 * A Petstore server in Java 17, written from the interface document (petstore-interface.md) the way the JDK's and
 * Jackson's guides teach a developer without a framework: com.sun.net.httpserver.HttpServer with one context, a
 * record for each schema read and written by a plain `new ObjectMapper()` (Jackson's defaults left as they are), an
 * enum whose @JsonValue is the wire value, Integer.parseInt and Long.parseLong for numbers, URLDecoder for the query.
 * Nothing here was tuned to the conformance suite.
 *
 * Debian: default-jdk-headless, libjackson2-databind-java. test/outside/stack-apps.ts compiles it with javac into a
 * temporary directory and runs it with API_KEY in the environment; it prints the address it listens on (port 0).
 */
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class PetstoreServer {
  enum PetStatus {
    AVAILABLE("available"),
    PENDING("pending"),
    SOLD("sold");

    private final String value;

    PetStatus(String value) {
      this.value = value;
    }

    @JsonValue
    public String value() {
      return value;
    }

    static PetStatus fromValue(String value) {
      for (PetStatus status : values()) {
        if (status.value.equals(value)) return status;
      }
      throw new IllegalArgumentException("Unknown status: " + value);
    }
  }

  record NewPet(String name, Long categoryId, PetStatus status) {}

  record Pet(long id, String name, long categoryId, PetStatus status) {}

  record Error(String code, String message, int status) {}

  private static final ObjectMapper mapper = new ObjectMapper();
  private static final Map<Long, Pet> pets = new LinkedHashMap<>();
  private static long nextId = 1;
  private static String apiKey;

  public static void main(String[] args) throws IOException {
    apiKey = System.getenv("API_KEY");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/pets", PetstoreServer::handle);
    server.start();
    System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort());
  }

  static void handle(HttpExchange exchange) throws IOException {
    try {
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      if (!("Bearer " + apiKey).equals(auth)) {
        sendError(exchange, 401, "unauthorized", "API key missing or invalid");
        return;
      }
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/v1/pets") && method.equals("GET")) {
        listPets(exchange);
      } else if (path.equals("/v1/pets") && method.equals("POST")) {
        createPet(exchange);
      } else if (path.startsWith("/v1/pets/") && method.equals("GET")) {
        getPet(exchange, path.substring("/v1/pets/".length()));
      } else {
        sendError(exchange, 404, "not_found", "No route for " + method + " " + path);
      }
    } finally {
      exchange.close();
    }
  }

  static void listPets(HttpExchange exchange) throws IOException {
    Map<String, String> query = parseQuery(exchange.getRequestURI().getRawQuery());
    int limit = 20;
    if (query.containsKey("limit")) {
      try {
        limit = Integer.parseInt(query.get("limit"));
      } catch (NumberFormatException e) {
        sendError(exchange, 400, "invalid_limit", "limit must be an integer");
        return;
      }
      if (limit < 1 || limit > 100) {
        sendError(exchange, 400, "invalid_limit", "limit must be between 1 and 100");
        return;
      }
    }
    PetStatus status = null;
    if (query.containsKey("status")) {
      try {
        status = PetStatus.fromValue(query.get("status"));
      } catch (IllegalArgumentException e) {
        sendError(exchange, 400, "invalid_status", e.getMessage());
        return;
      }
    }
    List<Pet> found = new ArrayList<>();
    synchronized (pets) {
      for (Pet pet : pets.values()) {
        if (found.size() == limit) break;
        if (status == null || pet.status() == status) found.add(pet);
      }
    }
    sendJson(exchange, 200, found);
  }

  static void createPet(HttpExchange exchange) throws IOException {
    NewPet newPet;
    try {
      newPet = mapper.readValue(exchange.getRequestBody(), NewPet.class);
    } catch (JsonProcessingException e) {
      sendError(exchange, 400, "invalid_body", "Invalid request body: " + e.getOriginalMessage());
      return;
    }
    if (newPet == null || newPet.name() == null || newPet.categoryId() == null) {
      sendError(exchange, 400, "invalid_body", "name and categoryId are required");
      return;
    }
    Pet pet;
    synchronized (pets) {
      pet = new Pet(nextId++, newPet.name(), newPet.categoryId(), newPet.status());
      pets.put(pet.id(), pet);
    }
    sendJson(exchange, 201, pet);
  }

  static void getPet(HttpExchange exchange, String rawId) throws IOException {
    long id;
    try {
      id = Long.parseLong(rawId);
    } catch (NumberFormatException e) {
      sendError(exchange, 400, "invalid_pet_id", "petId must be an integer");
      return;
    }
    Pet pet;
    synchronized (pets) {
      pet = pets.get(id);
    }
    if (pet == null) {
      sendError(exchange, 404, "not_found", "Pet " + id + " not found");
      return;
    }
    sendJson(exchange, 200, pet);
  }

  static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> query = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) return query;
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      query.put(URLDecoder.decode(key, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return query;
  }

  static void sendError(HttpExchange exchange, int status, String code, String message) throws IOException {
    sendJson(exchange, status, new Error(code, message, status));
  }

  static void sendJson(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = mapper.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
