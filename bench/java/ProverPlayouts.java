// Random playouts per CPU second of ggp-base's ProverStateMachine (the gdl-perf method):
// from the initial state, getRandomNextState until terminal, then each role's goal. Compiled and
// run by bench/gdl_playouts.py --java against a ggp-base source tree (GGPBASE_DIR).
//   java ProverPlayouts GAME.kif CPU_SECONDS WARMUP_CPU_SECONDS
// prints: playouts state_changes cpu_seconds (of this thread, after the warm-up)
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.logging.GamerLogger;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.exceptions.GoalDefinitionException;
import org.ggp.base.util.statemachine.StateMachine;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;

public class ProverPlayouts {
    public static void main(String[] args) throws Exception {
        String text = new String(Files.readAllBytes(Paths.get(args[0])), StandardCharsets.UTF_8);
        double seconds = Double.parseDouble(args[1]);
        double warmup = Double.parseDouble(args[2]);
        Game game = Game.createEphemeralGame(Game.preprocessRulesheet(text));
        GamerLogger.setSuppressLoggerOutput(true);  // one error line per ill-defined goal
        StateMachine machine = new ProverStateMachine();
        machine.initialize(game.getRules());
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        long end = bean.getCurrentThreadCpuTime() + (long) (warmup * 1e9);
        while (bean.getCurrentThreadCpuTime() < end) {
            playout(machine);
        }
        long start = bean.getCurrentThreadCpuTime();
        end = start + (long) (seconds * 1e9);
        long playouts = 0, steps = 0;
        while (bean.getCurrentThreadCpuTime() < end) {
            steps += playout(machine);  // a playout started before the end is finished
            playouts++;
        }
        double cpu = (bean.getCurrentThreadCpuTime() - start) / 1e9;
        System.out.println(playouts + " " + steps + " " + cpu);
    }

    static long playout(StateMachine machine) throws Exception {
        MachineState state = machine.getInitialState();
        long steps = 0;
        while (!machine.isTerminal(state)) {
            state = machine.getRandomNextState(state);
            steps++;
        }
        // each role's goal, as getGoals asks them, but a role whose goal is not exactly one
        // value does not end the run: GDL-II's random has no goal (MontyHall2) and some
        // games derive several values (kriegTTT_4x4; ggp uses the largest). The query's
        // work is done either way, which is what is timed.
        for (Role role : machine.getRoles()) {
            try {
                machine.getGoal(state, role);
            } catch (GoalDefinitionException e) {
                // not exactly one goal value: see above
            }
        }
        return steps;
    }
}
