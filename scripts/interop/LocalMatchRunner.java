import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.ggp.base.server.GameServer;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.match.Match;

/**
 * Runs one match on ggp-base's own match server (GameServer) with a game read from a
 * local .kif file, so no game repository on the internet is needed.
 *
 * <p>This file is ours (part of ggp's interoperability check); it only calls ggp-base's
 * public APIs. Run it in Java's source-file mode with ggp-base on the class path:
 *
 * <pre>
 * java -cp GGPBASE_CLASSPATH LocalMatchRunner.java GAME.kif MATCH_ID START PLAY OUT.json \
 *      [--scramble] [--preview SECONDS] NAME=HOST:PORT ...
 * </pre>
 *
 * One NAME=HOST:PORT per role, in the order the rules declare the roles. The server writes
 * the match JSON (moves, states, goal values and the per-step {@code errors} lists) to
 * OUT.json after every step. The exit status is 0 when the match completed, 2 otherwise.
 */
public final class LocalMatchRunner {
    private LocalMatchRunner() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 6) {
            System.err.println("usage: LocalMatchRunner GAME.kif MATCH_ID START PLAY OUT.json"
                    + " [--scramble] [--preview S] NAME=HOST:PORT ...");
            System.exit(64);
        }
        String rulesheet = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        String matchId = args[1];
        int startClock = Integer.parseInt(args[2]);
        int playClock = Integer.parseInt(args[3]);
        String outFile = args[4];

        boolean scramble = false;
        int previewClock = -1;  // ggp-base sends no PREVIEW when the clock is negative
        List<String> names = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (int i = 5; i < args.length; i++) {
            if (args[i].equals("--scramble")) {
                scramble = true;
            } else if (args[i].equals("--preview")) {
                previewClock = Integer.parseInt(args[++i]);
            } else {
                String[] nameAndAddress = args[i].split("=", 2);
                int colon = nameAndAddress[1].lastIndexOf(':');
                names.add(nameAndAddress[0]);
                hosts.add(nameAndAddress[1].substring(0, colon));
                ports.add(Integer.parseInt(nameAndAddress[1].substring(colon + 1)));
            }
        }

        Game game = Game.createEphemeralGame(Game.preprocessRulesheet(rulesheet));
        Match match = new Match(matchId, previewClock, startClock, playClock, game, "");
        match.setPlayerNamesFromHost(names);
        if (scramble) {
            match.enableScrambling();  // Tiltyard renames symbols; the player must cope
        }

        GameServer server = new GameServer(match, hosts, ports);
        server.startSavingToFilename(outFile);
        server.start();
        server.join();

        System.out.println("match " + matchId + " completed=" + match.isCompleted()
                + " goals=" + match.getGoalValues() + " errors=" + match.getErrorHistory());
        System.exit(match.isCompleted() ? 0 : 2);
    }
}
