package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** ModelParameters records every name a model asks about, so a job can refuse keys no model reads. */
class ModelParametersTest {

    @Test
    void recordsEveryNameAskedAboutPresentOrNot() {
        ModelParameters p = new ModelParameters("t", Map.of("a", 1, "b", List.of(1, 2), "c", "x", "unread", 3));
        assertEquals(Set.of(), p.consulted());
        p.getDouble("a");
        p.getDoubleArray("b");
        p.value("c");
        p.getDouble("absent", 2);
        p.getBoolean("flag", true);
        p.asMap().get("unread");
        assertEquals(Set.of("a", "b", "c", "absent", "flag"), p.consulted());
    }

    @Test
    void everyBuiltInModelReadsItsParametersWhenBuilt() {
        ModelParameters p = new ModelParameters("t", Map.of("threshold", 4));
        ModelRegistry.create("bimodal", p);
        assertEquals(Set.of("threshold"), p.consulted());
        ModelParameters gmm = new ModelParameters("t", Map.of("n", 50, "K", 3, "alpha", 1, "kappa0", 0.01, "s0", 1,
                "data-seed", 2));
        ModelRegistry.create("gmm", gmm);
        assertEquals(true, gmm.consulted().containsAll(gmm.asMap().keySet()), gmm.consulted().toString());
    }

    @Test
    void aDeserializedCopyStartsAfresh() throws IOException, ClassNotFoundException {
        ModelParameters p = new ModelParameters("t", Map.of("a", 1));
        p.getDouble("a");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            ModelParameters copy = (ModelParameters) in.readObject();
            assertEquals(Set.of(), copy.consulted());
            assertEquals(1.0, copy.getDouble("a"));
            assertEquals(Set.of("a"), copy.consulted());
        }
    }
}
