export { RotaGame } from './RotaGame';
