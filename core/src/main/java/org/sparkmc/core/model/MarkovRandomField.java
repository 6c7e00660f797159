package org.sparkmc.core.model;

import org.sparkmc.core.random.Rng;

/**
 * A target that is a Markov random field over the vertices of a {@link Graph}: one position coordinate per vertex,
 * and each coordinate's full conditional depends only on its neighbours. Vertices that share no edge are then
 * conditionally independent given the rest, so all vertices of one colour of a proper colouring can be drawn in
 * parallel (Gonzalez, Low, Gretton &amp; Guestrin 2011).
 */
public interface MarkovRandomField extends Target {

    /** The field's graph; coordinate v of the position belongs to vertex v. */
    Graph graph();

    /**
     * Replaces coordinate {@code site} of {@code position} by a draw from its full conditional. It reads only the
     * site's neighbours and writes only the site, so calls for non-adjacent sites may run concurrently.
     */
    void sampleSite(int site, double[] position, Rng rng);
}
