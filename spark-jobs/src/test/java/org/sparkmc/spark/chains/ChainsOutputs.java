package org.sparkmc.spark.chains;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Reads a finished chains run back for assertions. */
final class ChainsOutputs {
    private ChainsOutputs() {
    }

    static JsonNode summary(Path out) {
        try {
            return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode parameter(JsonNode summary, String name) {
        for (JsonNode p : summary.get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no parameter " + name + " in " + summary);
    }

    /** All draws ordered by chain and draw. */
    static List<Row> draws(SparkSession spark, Path out) {
        return spark.read().parquet(out.resolve("draws.parquet").toString()).orderBy("chain", "draw").collectAsList();
    }
}
